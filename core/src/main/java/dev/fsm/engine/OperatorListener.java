package dev.fsm.engine;

import dev.fsm.store.BreakerNews;
import dev.fsm.task.Command;
import dev.fsm.task.Task;
import java.util.Optional;

/** Hears what operators did, so a runner in the same process can act at once. */
public interface OperatorListener {
  /** A command changed a task (durably); a running action may have to stop or hear it. */
  void commandApplied(Task after, Command command);

  /**
   * {@code fsm upgrade} marked a task whose attempt is running: it moves to the new version once
   * that attempt's outcome is recorded. Only a runner has attempts to mark.
   */
  default void upgradePending(Task task) {}

  /** Tasks became runnable (started, signalled); a waiting runner should claim now. */
  void workArrived();

  /** Another runner's breaker of a machine opened or closed; a runner here follows it. */
  default void breakerHeard(BreakerNews news) {}

  /**
   * Other runners' news may have been missed (the store's events were not heard for a while);
   * by default, as new work.
   */
  default void newsMissed() {
    workArrived();
  }

  /** The circuit breaker a runner in this process keeps for the machine, if any. */
  default Optional<Breaker> breaker(String machine) {
    return Optional.empty();
  }

  /**
   * True when a runner in this process keeps the breakers ({@link #breaker}), so none is worked
   * out from the store's histories.
   */
  default boolean keepsBreakers() {
    return false;
  }

  /** A listener that does nothing. */
  OperatorListener NONE = new OperatorListener() {
    @Override
    public void commandApplied(Task after, Command command) {}

    @Override
    public void workArrived() {}
  };
}

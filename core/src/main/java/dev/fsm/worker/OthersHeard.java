package dev.fsm.worker;

import dev.fsm.engine.OperatorListener;
import dev.fsm.engine.Upgrades;
import dev.fsm.store.BreakerNews;
import dev.fsm.store.Store;
import dev.fsm.store.StoreEvents;
import dev.fsm.task.Command;
import dev.fsm.task.Task;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Passes what other processes did to a shared store on to this process's runner, as if an
 * operator here had done it: a command to a task it runs stops or reaches the action, an upgrade
 * waits for the attempt, and new work wakes it. Tasks the runner does not hold cost nothing.
 */
final class OthersHeard implements StoreEvents {

  private final Store store;
  private final OperatorListener runner;
  private final Predicate<String> holds;

  OthersHeard(Store store, OperatorListener runner, Predicate<String> holds) {
    this.store = store;
    this.runner = runner;
    this.holds = holds;
  }

  @Override
  public void taskChanged(String id, String event) {
    if (holds.test(id)) {
      Optional<Task> task = store.get(id);
      task.ifPresent(t -> tell(t, event));
    }
    runner.workArrived();
  }

  @Override
  public void workArrived() {
    runner.workArrived();
  }

  @Override
  public void breakerChanged(BreakerNews news) {
    runner.breakerHeard(news);
  }

  @Override
  public void heardAgain() {
    runner.newsMissed();
  }

  private void tell(Task task, String event) {
    if (Upgrades.EVENT.equals(event)) {
      runner.upgradePending(task);
      return;
    }
    Command.parse(event).ifPresent(command -> runner.commandApplied(task, command));
  }
}

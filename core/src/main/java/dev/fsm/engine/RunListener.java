package dev.fsm.engine;

import dev.fsm.task.Change;
import java.time.Duration;

/**
 * Hears what a runner does, for its live line, its log, its JSON event lines and its metrics.
 * Called from runner threads.
 */
public interface RunListener {

  /** What a problem is about, so that a listener may tell them apart (JSON event lines do). */
  enum Topic {
    /** Anything not below: a task that could not be worked, outcomes not recorded. */
    OTHER,
    /** Leases could not be renewed: running actions are stopped before their leases end. */
    LEASE,
    /** The store stopped answering; said once per outage. */
    STORE_UNAVAILABLE,
    /** The store answers again after an outage. */
    STORE_AVAILABLE
  }

  /** A transition (or other history entry) was recorded durably. */
  default void recorded(Change change) {}

  /**
   * An attempt of a state's action ended and its outcome was recorded durably (heard after
   * {@link #recorded} for the same change).
   */
  default void attemptEnded(AttemptEnd end) {}

  /** The runner wrote {@code changes} outcomes to the store with one call that took {@code took}. */
  default void committed(int changes, Duration took) {}

  /** An attempt's outcome was dropped: its lease was lost or an operator's command came first. */
  default void discarded(String taskId, String why) {}

  /** A machine's circuit breaker opened (again) or closed. */
  default void breaker(String machine, Breaker.Change change) {}

  /** Something went wrong that is not a task's own error; the runner carries on. */
  default void problem(String message) {}

  /** A problem about {@code topic}; by default heard as any other {@link #problem(String)}. */
  default void problem(Topic topic, String message) {
    problem(message);
  }

  /** A machine's {@code retention:} made the runner purge {@code tasks} terminal tasks. */
  default void purged(String machine, Duration retention, long tasks) {}

  /** A listener that hears nothing. */
  RunListener NONE = new RunListener() {};

  /** A listener that tells {@code first}, then {@code second}, everything it hears. */
  static RunListener both(RunListener first, RunListener second) {
    return new RunListener() {
      @Override
      public void recorded(Change change) {
        first.recorded(change);
        second.recorded(change);
      }

      @Override
      public void attemptEnded(AttemptEnd end) {
        first.attemptEnded(end);
        second.attemptEnded(end);
      }

      @Override
      public void committed(int changes, Duration took) {
        first.committed(changes, took);
        second.committed(changes, took);
      }

      @Override
      public void discarded(String taskId, String why) {
        first.discarded(taskId, why);
        second.discarded(taskId, why);
      }

      @Override
      public void breaker(String machine, Breaker.Change change) {
        first.breaker(machine, change);
        second.breaker(machine, change);
      }

      @Override
      public void problem(String message) {
        first.problem(message);
        second.problem(message);
      }

      @Override
      public void problem(Topic topic, String message) {
        first.problem(topic, message);
        second.problem(topic, message);
      }

      @Override
      public void purged(String machine, Duration retention, long tasks) {
        first.purged(machine, retention, tasks);
        second.purged(machine, retention, tasks);
      }
    };
  }
}

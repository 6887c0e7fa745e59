package dev.fsm.engine;

import dev.fsm.task.Change;
import java.time.Duration;

/** Hears what a runner does, for its live line and its log. Called from runner threads. */
public interface RunListener {

  /** A transition (or other history entry) was recorded durably. */
  default void recorded(Change change) {}

  /** An attempt's outcome was dropped: its lease was lost or an operator's command came first. */
  default void discarded(String taskId, String why) {}

  /** A machine's circuit breaker opened (again) or closed. */
  default void breaker(String machine, Breaker.Change change) {}

  /** Something went wrong that is not a task's own error; the runner carries on. */
  default void problem(String message) {}

  /** A machine's {@code retention:} made the runner purge {@code tasks} terminal tasks. */
  default void purged(String machine, Duration retention, long tasks) {}

  /** A listener that hears nothing. */
  RunListener NONE = new RunListener() {};
}

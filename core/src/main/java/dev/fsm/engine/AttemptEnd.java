package dev.fsm.engine;

import java.time.Duration;

/**
 * An attempt of a state's action that ended and whose outcome the runner recorded: what metrics
 * count. Its result follows the one definition of an error ({@link AttemptErrors}), so metrics
 * agree with {@code fsm stats} and the circuit breaker.
 *
 * @param taskId the task
 * @param machine the task's machine
 * @param state the state whose action ran
 * @param result how the attempt ended
 * @param duration how long the action ran
 */
public record AttemptEnd(String taskId, String machine, String state, Result result,
    Duration duration) {

  /** How an attempt ended. */
  public enum Result {
    /** The action emitted an event its state has an edge for. */
    SUCCEEDED,
    /** The action failed: an error, however its policy or an edge routed it. */
    ERROR,
    /** The action ran out of time and was stopped: an error too. */
    TIMEOUT,
    /** The action asked to sleep: an attempt, neither a success nor an error. */
    SLEPT;

    /** True for the results that count as errors (SPEC section 3). */
    public boolean isError() {
      return this == ERROR || this == TIMEOUT;
    }
  }
}

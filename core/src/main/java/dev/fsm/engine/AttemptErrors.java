package dev.fsm.engine;

import dev.fsm.model.State;
import dev.fsm.task.Transition;
import java.util.Set;

/**
 * The one definition of an error (SPEC section 3), used by {@code fsm stats}, the runner's live
 * line and the circuit breaker: every attempt that ended in an error or a timeout, whether the
 * retry policy retried it, an {@code error}, {@code timeout} or {@code exhausted} edge routed it,
 * or it failed the task. Each such attempt leaves exactly one history entry written by the runner,
 * with the error's message in its {@code reason}, so the count survives the task moving on or
 * being redriven.
 *
 * <p>An operator's {@code send error} is a command, not an attempt's error: no attempt ended, so
 * it is not counted (its entry is written by an operator, with the command as its event).
 */
public final class AttemptErrors {

  /** The events a runner records when an attempt ended in an error or a timeout. */
  private static final Set<String> ERROR_EVENTS =
      Set.of(State.ERROR, State.TIMEOUT, State.EXHAUSTED);

  private AttemptErrors() {}

  /** True when this history entry records an attempt that ended in an error or a timeout. */
  public static boolean isError(Transition entry) {
    return Step.byRunner(entry) && ERROR_EVENTS.contains(entry.event());
  }
}

package dev.fsm.task;

import java.util.List;
import java.util.Set;

/**
 * The one definition of an error (SPEC section 3), used by {@code fsm errors}, {@code fsm stats},
 * the runner's live line and the circuit breaker, and by every store's {@code errors} query:
 * every attempt that ended in an error or a timeout, whether the retry policy retried it, an
 * {@code error}, {@code timeout} or {@code exhausted} edge routed it, or it failed the task. Each
 * such attempt leaves exactly one history entry written by a runner, with the error's message in
 * its {@code reason}, so the count survives the task moving on or being redriven.
 *
 * <p>An operator's {@code send error} is a command, not an attempt's error: no attempt ended, so
 * it is not counted (its entry is written by an operator, with the command as its event).
 */
public final class AttemptErrors {

  /** How history entries written by runners name them ({@code runner:PID@HOST/wN}). */
  public static final String RUNNER = "runner:";

  /**
   * The events a runner records when an attempt ended in an error or a timeout, in a fixed order
   * (a store may put them in a query): the reserved event names.
   */
  public static final List<String> EVENTS = List.of("error", "timeout", "exhausted");

  private static final Set<String> EVENT_SET = Set.copyOf(EVENTS);

  private AttemptErrors() {}

  /** True when this history entry records an attempt that ended in an error or a timeout. */
  public static boolean isError(Transition entry) {
    return byRunner(entry) && EVENT_SET.contains(entry.event());
  }

  /** True for history entries a runner wrote, as opposed to an operator's command or signal. */
  public static boolean byRunner(Transition entry) {
    return entry.by().startsWith(RUNNER);
  }
}

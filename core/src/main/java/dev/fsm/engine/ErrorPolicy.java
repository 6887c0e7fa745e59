package dev.fsm.engine;

import dev.fsm.model.Durations;
import dev.fsm.model.RetryPolicy;
import dev.fsm.model.State;
import dev.fsm.task.TaskError;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A state's retry policy applied to a task's errors: with fewer than {@code max_errors} errors in
 * the window the task sleeps for the backoff and runs again; otherwise it gives up: the task
 * takes the state's {@code exhausted} edge when it has one, and fails when not.
 */
final class ErrorPolicy {

  /**
   * What the policy decided.
   *
   * @param errors the task's errors inside the window, newest last
   * @param retryAt when to run again, or null when the policy gives up
   * @param explanation a short line for the history, e.g. "retry in 10m (2 of 8 errors in 4h)"
   */
  record Decision(List<TaskError> errors, Instant retryAt, String explanation) {

    /** True when the errors used up the policy: no more retries. */
    boolean gaveUp() {
      return retryAt == null;
    }
  }

  /**
   * The explanation {@link #decide} writes, as {@code Step} appends it to an error's message in
   * the history ({@code "; retry in 10m (2 of 8 errors in 4h)"}, {@code "; failed: 8 of 8 errors
   * in 4h"}, {@code "; exhausted, to `review`: 3 of 3 errors in 1h"}).
   */
  private static final Pattern EXPLAINED = Pattern.compile(
      "; (?:retry in \\S+ \\(\\d+ of \\d+ errors in \\S+\\)|(?:failed|exhausted, to `[^`]*`):"
          + " \\d+ of \\d+ errors in \\S+)$");

  private ErrorPolicy() {}

  /**
   * An error's message in a history entry without the policy's decision after it, so the same
   * cause reads the same whether it was retried or gave up ({@code fsm errors} groups by it).
   */
  static String cause(String reason) {
    return EXPLAINED.matcher(reason).replaceFirst("");
  }

  /** Decides after the errors (the newest one included) at {@code now}. */
  static Decision decide(State state, List<TaskError> errors, Instant now, double random) {
    RetryPolicy policy = state.retry();
    List<TaskError> recent = inWindow(errors, policy.window(), now);
    int count = recent.size();
    String budget = count + " of " + policy.maxErrors() + " errors in "
        + Durations.format(policy.window());
    if (count < policy.maxErrors()) {
      Duration pause = policy.backoff().delay(count, random);
      return new Decision(recent, now.plus(pause),
          "retry in " + Durations.format(pause) + " (" + budget + ")");
    }
    String end = state.next(State.EXHAUSTED).map(to -> "exhausted, to `" + to + "`")
        .orElse("failed");
    return new Decision(recent, null, end + ": " + budget);
  }

  /** The errors newer than the window, at most as many as the policy counts. */
  static List<TaskError> inWindow(List<TaskError> errors, Duration window, Instant now) {
    Instant since = now.minus(window);
    List<TaskError> kept = new ArrayList<>();
    for (TaskError e : errors) {
      if (e.time().isAfter(since)) {
        kept.add(e);
      }
    }
    // A task's errors ride along in every record of it; keep the list short.
    int max = 64;
    return kept.size() <= max ? kept : kept.subList(kept.size() - max, kept.size());
  }
}

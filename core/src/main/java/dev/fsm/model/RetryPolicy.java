package dev.fsm.model;

import java.time.Duration;

/**
 * How action errors are retried: with fewer than {@code maxErrors} errors inside {@code window}
 * the task sleeps for the backoff and runs again; otherwise it fails.
 */
public record RetryPolicy(int maxErrors, Duration window, Backoff backoff) {

  /** 8 errors in 4 hours, 10 minutes apart: the SPEC's default. */
  public static final RetryPolicy DEFAULT =
      new RetryPolicy(8, Duration.ofHours(4), Backoff.fixed(Duration.ofMinutes(10)));

  public RetryPolicy {
    if (maxErrors < 1) {
      throw new IllegalArgumentException("max_errors must be at least 1");
    }
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("window must be longer than 0");
    }
  }
}

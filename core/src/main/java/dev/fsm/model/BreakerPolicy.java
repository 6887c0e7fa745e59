package dev.fsm.model;

import java.time.Duration;

/**
 * A machine's circuit breaker settings (SPEC section 4): when, within {@code window}, at least
 * {@code minAttempts} attempts ended and the share of errors reaches {@code errorShare}, no
 * attempt of the machine starts for {@code cooldown}; then one probe attempt decides.
 *
 * @param errorShare the share of errors that opens the breaker, in (0, 1]
 * @param minAttempts attempts that must have ended in the window before it may open
 * @param window how far back attempts count
 * @param cooldown how long it stays open before the probe; doubled after each failed probe, up
 *     to {@value #MAX_COOLDOWN_FACTOR} times this
 */
public record BreakerPolicy(double errorShare, int minAttempts, Duration window,
    Duration cooldown) {

  /** The longest cooldown, as a multiple of the configured one. */
  public static final int MAX_COOLDOWN_FACTOR = 10;

  /** {@code breaker: on}: 50% errors of at least 20 attempts within 1m, 30s cooldown. */
  public static final BreakerPolicy DEFAULT =
      new BreakerPolicy(0.5, 20, Duration.ofMinutes(1), Duration.ofSeconds(30));

  public BreakerPolicy {
    if (!(errorShare > 0 && errorShare <= 1)) {
      throw new IllegalArgumentException("errorShare must be in (0, 1]");
    }
    if (minAttempts < 1 || window.isNegative() || window.isZero() || cooldown.isNegative()
        || cooldown.isZero()) {
      throw new IllegalArgumentException("minAttempts, window and cooldown must be positive");
    }
  }

  /** The share as the percentage users write, e.g. {@code 50%}. */
  public String errorsText() {
    double pct = errorShare * 100;
    return (pct == Math.rint(pct) ? String.valueOf((long) pct) : String.valueOf(pct)) + "%";
  }
}

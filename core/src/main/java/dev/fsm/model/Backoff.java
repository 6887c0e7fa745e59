package dev.fsm.model;

import java.time.Duration;

/**
 * The pause before retrying after an error: {@code initial * multiplier^(n-1)}, capped at {@code
 * max}, spread by up to {@code ±jitter} of itself.
 */
public record Backoff(Duration initial, Duration max, double multiplier, double jitter) {

  public Backoff {
    if (initial.isNegative() || max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("backoff max must not be shorter than initial");
    }
    if (!(multiplier >= 1.0) || Double.isInfinite(multiplier)) {
      throw new IllegalArgumentException("backoff multiplier must be at least 1");
    }
    if (!(jitter >= 0.0 && jitter <= 1.0)) {
      throw new IllegalArgumentException("backoff jitter must be between 0 and 1");
    }
  }

  /** The same pause every time. */
  public static Backoff fixed(Duration pause) {
    return new Backoff(pause, pause, 1.0, 0.0);
  }

  /**
   * The pause after the given error.
   *
   * @param errorNumber 1 for the first error in the window, 2 for the second...
   * @param unitRandom a number in [0, 1) that picks where in the jitter range the pause falls
   */
  public Duration delay(int errorNumber, double unitRandom) {
    double base = initial.toMillis() * Math.pow(multiplier, Math.max(0, errorNumber - 1));
    double capped = Math.min(base, max.toMillis());
    double spread = capped * jitter * (2 * unitRandom - 1);
    return Duration.ofMillis(Math.max(0, Math.round(capped + spread)));
  }
}

package dev.fsm.model;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The pause before retrying after an error: {@code initial * multiplier^(n-1)}, capped at {@code
 * max}, spread by up to {@code ±jitter} of itself.
 */
public record Backoff(Duration initial, Duration max, double multiplier, double jitter) {

  public Backoff {
    Map<String, String> broken = broken(initial, max, multiplier, jitter);
    if (!broken.isEmpty()) {
      throw new IllegalArgumentException(broken.values().iterator().next());
    }
  }

  /**
   * Every rule these settings break, by the setting at fault ({@code max}, {@code multiplier},
   * {@code jitter}), in that order; a null setting is not given and breaks none.
   */
  public static Map<String, String> broken(Duration initial, Duration max, Double multiplier,
      Double jitter) {
    Map<String, String> broken = new LinkedHashMap<>();
    if (initial != null && (initial.isNegative() || max != null && max.compareTo(initial) < 0)) {
      broken.put("max", "backoff max must not be shorter than initial");
    }
    if (multiplier != null && (!(multiplier >= 1.0) || Double.isInfinite(multiplier))) {
      broken.put("multiplier", "backoff multiplier must be at least 1");
    }
    if (jitter != null && !(jitter >= 0.0 && jitter <= 1.0)) {
      broken.put("jitter", "backoff jitter must be between 0 and 1");
    }
    return broken;
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

package dev.fsm.engine;

import dev.fsm.model.Durations;
import dev.fsm.model.State;
import dev.fsm.model.Timeout;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The timeout in force for each state: fixed, none, or adaptive ({@code pNN}): that percentile of
 * the state's last {@value #WINDOW} successful durations, kept between a floor and a ceiling, and
 * a default until {@value #MIN_SAMPLES} samples exist. Thread-safe.
 */
public final class Timeouts {

  /** Adaptive limits never go below this, so fast states are not cut off by jitter. */
  public static final Duration FLOOR = Duration.ofSeconds(1);
  /** Nor above this. */
  public static final Duration CEILING = Duration.ofHours(1);
  /** The limit until enough samples exist. */
  public static final Duration DEFAULT = Duration.ofMinutes(5);
  /** Samples needed before the percentile is trusted. */
  public static final int MIN_SAMPLES = 20;
  /** Samples kept per state. */
  public static final int WINDOW = 200;

  /**
   * A limit and how to explain it.
   *
   * @param limit how long an attempt may run, or null for no limit
   * @param text for people, e.g. {@code 30s}, {@code p95 = 1.2s (200 samples)}, {@code none}
   */
  public record Limit(Duration limit, String text) {}

  private record Key(String machine, String state) {}

  private final Map<Key, DurationSamples> samples = new ConcurrentHashMap<>();

  /** Records a successful attempt's duration. */
  public void succeeded(String machine, String state, Duration duration) {
    samplesOf(machine, state).add(duration);
  }

  /** The limit in force now for a state of a machine. */
  public Limit limit(String machine, State state) {
    return limit(state.timeout(), samplesOf(machine, state.name()));
  }

  /** The samples of a state, created empty when new. */
  public DurationSamples samplesOf(String machine, String state) {
    return samples.computeIfAbsent(new Key(machine, state), k -> new DurationSamples(WINDOW));
  }

  /** The limit a timeout setting gives with these samples. */
  public static Limit limit(Timeout timeout, DurationSamples samples) {
    if (timeout instanceof Timeout.Fixed fixed) {
      return new Limit(fixed.limit(), Durations.format(fixed.limit()));
    }
    if (timeout instanceof Timeout.Percentile p) {
      String name = Durations.formatPercentile(p.percentile());
      int n = samples.count();
      if (n < MIN_SAMPLES) {
        return new Limit(DEFAULT, name + ": " + Durations.format(DEFAULT) + " until "
            + MIN_SAMPLES + " samples (" + n + " so far)");
      }
      Duration raw = samples.percentile(p.percentile());
      Duration bounded = raw.compareTo(FLOOR) < 0 ? FLOOR
          : raw.compareTo(CEILING) > 0 ? CEILING : raw;
      return new Limit(bounded, name + " = " + Durations.format(bounded) + " (" + n
          + " samples)");
    }
    return new Limit(null, "none (at-most-once)");
  }
}

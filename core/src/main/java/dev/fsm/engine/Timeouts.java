package dev.fsm.engine;

import dev.fsm.model.Durations;
import dev.fsm.model.State;
import dev.fsm.model.Timeout;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The timeout in force for each state: fixed, none, or adaptive ({@code pNN}): that percentile of
 * the state's last {@value #WINDOW} successful durations, kept between a floor and a ceiling, and
 * a default until {@value #MIN_SAMPLES} samples exist; a full window's percentile is computed again
 * after every {@link #STALE_SAMPLES} new samples. A runner's timeouts can be seeded with the
 * state's recent successes found in the store, so the percentile holds across restarts.
 * Thread-safe.
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

  /** Where adaptive states find their recent successes when a runner has seen none yet. */
  @FunctionalInterface
  public interface Seed {

    /** Up to {@value Timeouts#WINDOW} successful durations of the state, oldest first. */
    List<Duration> durations(String machine, State state);
  }

  private record Key(String machine, String state) {}

  /** A limit computed when the samples had had {@code added} samples added. */
  private record Computed(Timeout timeout, long added, Limit limit) {}

  /**
   * Samples a full window may gain before its percentile is computed again: sorting the window
   * and formatting its text on every attempt was a tenth of a no-op runner's CPU, and 10 of 200
   * samples move a percentile little. A window still filling is computed on every change.
   */
  static final int STALE_SAMPLES = WINDOW / 20;

  /** A state's samples, and whether they were seeded yet. */
  private static final class Entry {
    final DurationSamples samples = new DurationSamples(WINDOW);
    private volatile boolean seeded;
    private volatile Computed computed;

    Limit limit(Timeout timeout) {
      long added = samples.added();
      Computed c = computed;
      if (c != null && c.timeout.equals(timeout) && (c.added == added
          || samples.full() && added - c.added < STALE_SAMPLES)) {
        return c.limit;
      }
      Limit limit = Timeouts.limit(timeout, samples);
      computed = new Computed(timeout, added, limit);
      return limit;
    }

    /**
     * Adds the seed's durations the first time; callers that arrive meanwhile wait for them
     * rather than run on the default.
     */
    void seedOnce(Seed seed, String machine, State state) {
      if (seeded) {
        return;
      }
      synchronized (this) {
        if (seeded) {
          return;
        }
        // Marked even when the seed fails, so a store that cannot be read does not cost every
        // later claim of the state another try.
        try {
          for (Duration d : seed.durations(machine, state)) {
            samples.add(d);
          }
        } finally {
          seeded = true;
        }
      }
    }
  }

  private final Map<Key, Entry> entries = new ConcurrentHashMap<>();
  private final Seed seed;

  /** Timeouts whose adaptive states start with no samples. */
  public Timeouts() {
    this((machine, state) -> List.of());
  }

  /**
   * Timeouts that seed each adaptive state from {@code seed} once, the first time its limit or a
   * success of it reaches them, so a restarted runner need not begin again from the default.
   */
  public Timeouts(Seed seed) {
    this.seed = seed;
  }

  /** Records a successful attempt's duration. */
  public void succeeded(String machine, State state, Duration duration) {
    seeded(machine, state).samples.add(duration);
  }

  /** The limit in force now for a state of a machine. */
  public Limit limit(String machine, State state) {
    return seeded(machine, state).limit(state.timeout());
  }

  /** The samples of a state as they stand, without seeding; created empty when new. */
  public DurationSamples samplesOf(String machine, String state) {
    return entry(machine, state).samples;
  }

  // Seeded before any sample of this runner is added, so the seed's older ones come first.
  private Entry seeded(String machine, State state) {
    Entry e = entry(machine, state.name());
    if (state.timeout() instanceof Timeout.Percentile) {
      e.seedOnce(seed, machine, state);
    }
    return e;
  }

  private Entry entry(String machine, String state) {
    return entries.computeIfAbsent(new Key(machine, state), k -> new Entry());
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

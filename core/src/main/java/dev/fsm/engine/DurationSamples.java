package dev.fsm.engine;

import java.time.Duration;
import java.util.Arrays;

/** The most recent successful durations of one state, for adaptive timeouts and statistics. */
public final class DurationSamples {

  private final long[] millis;
  private int count;
  private int next;
  private long added;

  /** Keeps the last {@code capacity} samples. */
  public DurationSamples(int capacity) {
    millis = new long[capacity];
  }

  /** Adds a sample, forgetting the oldest when full. */
  public synchronized void add(Duration duration) {
    millis[next] = Math.max(0, duration.toMillis());
    next = (next + 1) % millis.length;
    count = Math.min(count + 1, millis.length);
    added++;
  }

  /** How many samples were ever added: it changes whenever the samples do. */
  public synchronized long added() {
    return added;
  }

  /** Whether it keeps as many samples as it can: each new one then pushes the oldest out. */
  public synchronized boolean full() {
    return count == millis.length;
  }

  /** How many samples are kept. */
  public synchronized int count() {
    return count;
  }

  /** The given percentile (0 to 100) by the nearest-rank method, or null without samples. */
  public synchronized Duration percentile(double percentile) {
    if (count == 0) {
      return null;
    }
    long[] sorted = Arrays.copyOf(millis, count);
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(percentile / 100.0 * count);
    return Duration.ofMillis(sorted[Math.min(count - 1, Math.max(0, rank - 1))]);
  }
}

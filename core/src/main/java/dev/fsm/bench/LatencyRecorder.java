package dev.fsm.bench;

import java.util.Arrays;

/**
 * Collects latencies in nanoseconds from one thread and summarises them; one recorder per writer
 * thread, merged at the end, so recording never contends.
 */
public final class LatencyRecorder {

  private long[] nanos = new long[1024];
  private int count;

  /** Adds one latency. */
  public void record(long latencyNanos) {
    if (count == nanos.length) {
      nanos = Arrays.copyOf(nanos, count * 2);
    }
    nanos[count++] = latencyNanos;
  }

  /** Adds everything {@code other} recorded. */
  public void addAll(LatencyRecorder other) {
    if (count + other.count > nanos.length) {
      nanos = Arrays.copyOf(nanos, Math.max(nanos.length * 2, count + other.count));
    }
    System.arraycopy(other.nanos, 0, nanos, count, other.count);
    count += other.count;
  }

  /** How many latencies were recorded. */
  public int count() {
    return count;
  }

  /** The p50, p99 and maximum of what was recorded; all zero when nothing was. */
  public Latency summary() {
    if (count == 0) {
      return new Latency(0, 0, 0, 0);
    }
    long[] sorted = Arrays.copyOf(nanos, count);
    Arrays.sort(sorted);
    return new Latency(count, millis(percentile(sorted, 0.50)), millis(percentile(sorted, 0.99)),
        millis(sorted[count - 1]));
  }

  /**
   * The nearest-rank percentile of sorted values: the smallest value with at least {@code p} of
   * all values at or below it.
   */
  static long percentile(long[] sorted, double p) {
    int rank = (int) Math.ceil(p * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
  }

  private static double millis(long nanos) {
    return nanos / 1e6;
  }
}

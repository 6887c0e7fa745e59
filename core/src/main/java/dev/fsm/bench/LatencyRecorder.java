package dev.fsm.bench;

import org.HdrHistogram.Histogram;

/**
 * Collects latencies in nanoseconds from one thread and summarises them; one recorder per writer
 * thread, merged at the end, so recording never contends. An HdrHistogram with 3 significant
 * digits: constant memory and time per latency however long a benchmark runs, every percentile
 * within 0.1% of the exact nearest-rank one.
 */
public final class LatencyRecorder {

  /** Significant decimal digits kept: a percentile is within 0.1% of the true value. */
  static final int DIGITS = 3;

  private final Histogram nanos = new Histogram(DIGITS);

  /** Adds one latency; a negative one (a clock step) counts as zero. */
  public void record(long latencyNanos) {
    nanos.recordValue(Math.max(0, latencyNanos));
  }

  /** Adds everything {@code other} recorded. */
  public void addAll(LatencyRecorder other) {
    nanos.add(other.nanos);
  }

  /** How many latencies were recorded. */
  public int count() {
    return (int) Math.min(Integer.MAX_VALUE, nanos.getTotalCount());
  }

  /** The p50, p99 and maximum of what was recorded; all zero when nothing was. */
  public Latency summary() {
    if (nanos.getTotalCount() == 0) {
      return new Latency(0, 0, 0, 0);
    }
    return new Latency(count(), millis(nanos.getValueAtPercentile(50)),
        millis(nanos.getValueAtPercentile(99)), millis(nanos.getMaxValue()));
  }

  private static double millis(long nanos) {
    return nanos / 1e6;
  }
}

package dev.fsm.bench;

/**
 * A summary of measured latencies.
 *
 * @param samples how many were measured
 * @param p50Millis the median (nearest rank, within 0.1%: {@link LatencyRecorder})
 * @param p99Millis the 99th percentile (nearest rank, within 0.1%)
 * @param maxMillis the largest
 */
public record Latency(int samples, double p50Millis, double p99Millis, double maxMillis) {}

package dev.fsm.bench;

/**
 * Durable-ack latency of store transitions when writers are paced to a fixed offered rate, so
 * that the store is not saturated. Latency counts from when a transition was due to start, so a
 * stall also delays, and is charged to, the transitions queued behind it.
 *
 * @param writers paced writers
 * @param basisWriters the writer count whose measured throughput was halved
 * @param offeredPerSecond the rate the writers were paced to, all together
 * @param achieved what they did
 * @param latency ack latencies of the transitions
 */
public record HalfLoad(int writers, int basisWriters, double offeredPerSecond,
    Throughput achieved, Latency latency) {}

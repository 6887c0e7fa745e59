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
 * @param forcesPerSecond the journal's forces a second during the run: each paced writer waits
 *     for its transition's force before the next, so the writers can do at most this many times
 *     their number a second, and a disk slower than a quarter of the offered rate in a bad hour
 *     shows here
 */
public record HalfLoad(int writers, int basisWriters, double offeredPerSecond,
    Throughput achieved, Latency latency, double forcesPerSecond) {}

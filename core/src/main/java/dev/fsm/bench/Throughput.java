package dev.fsm.bench;

import dev.fsm.operations.Operations;

/**
 * Durable operations done by concurrent writers in a measured time.
 *
 * @param writers how many writers ran at once
 * @param operations durable operations acknowledged (log records or store transitions)
 * @param nanos how long the writers ran, from start until the last one stopped
 */
public record Throughput(int writers, long operations, long nanos) {

  /** Operations per second; 0 when nothing was timed. */
  public double perSecond() {
    return nanos <= 0 ? 0 : operations * 1e9 / nanos;
  }
}

package dev.fsm.store;

import java.time.Duration;
import java.time.Instant;

/**
 * A runner's circuit breaker of a machine opened or closed, told to the other runners of a
 * shared store so the breaker holds across all of them (SPEC section 4). A hint like any
 * {@link StoreEvents} news: a runner that missed it still counts its own attempts.
 *
 * @param machine the machine whose breaker changed
 * @param open true when it opened (again), false when it closed
 * @param until when an open breaker lets a probe start; null when closed
 * @param cooldown the cooldown it opened with (doubled by failed probes); null when closed
 * @param errorRate the share of errors that opened it
 * @param attempts the attempts that share was taken over
 */
public record BreakerNews(String machine, boolean open, Instant until, Duration cooldown,
    double errorRate, int attempts) {

  /** The breaker of {@code machine} closed. */
  public static BreakerNews closed(String machine) {
    return new BreakerNews(machine, false, null, null, 0, 0);
  }
}

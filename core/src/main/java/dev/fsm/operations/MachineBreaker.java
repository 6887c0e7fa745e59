package dev.fsm.operations;

import java.time.Instant;

/**
 * A machine's circuit breaker as {@code fsm machines} and {@code fsm stats} show it.
 *
 * @param machine the machine's name
 * @param state {@code closed}, {@code open} or {@code half-open}, or {@code -} when the machine
 *     has no breaker
 * @param errorRate the share of errors among {@code attempts}: those in the window when closed,
 *     those that opened it otherwise
 * @param attempts attempts that ended in the window (closed) or that opened it
 * @param until when an open breaker lets a probe start; null unless open
 */
public record MachineBreaker(String machine, String state, double errorRate, int attempts,
    Instant until) {

  /** The state of a machine without a breaker. */
  public static final String NONE = "-";

  /** A closed breaker that counts nothing yet, as when no runner owns the store. */
  public static MachineBreaker closed(String machine) {
    return new MachineBreaker(machine, "closed", 0, 0, null);
  }

  /** The display of a machine with no breaker. */
  public static MachineBreaker none(String machine) {
    return new MachineBreaker(machine, NONE, 0, 0, null);
  }
}

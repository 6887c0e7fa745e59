package dev.fsm.engine;

import java.util.concurrent.atomic.AtomicLong;

/** What a runner has done so far, for its live line and summary. */
public final class RunCounters {
  final AtomicLong claimed = new AtomicLong();
  final AtomicLong transitions = new AtomicLong();
  final AtomicLong errors = new AtomicLong();

  /** Tasks claimed. */
  public long claimed() {
    return claimed.get();
  }

  /** Transitions recorded, wait states and signals-to-be included; errors not. */
  public long transitions() {
    return transitions.get();
  }

  /** Errors recorded in their state: retries, failures, faults. */
  public long errors() {
    return errors.get();
  }
}

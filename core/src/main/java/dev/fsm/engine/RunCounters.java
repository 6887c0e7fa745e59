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

  /** Attempts that ended with an event. */
  public long transitions() {
    return transitions.get();
  }

  /** Attempts that ended with an error or a timeout. */
  public long errors() {
    return errors.get();
  }
}

package dev.fsm.engine;

import dev.fsm.task.AttemptErrors;
import java.util.concurrent.atomic.AtomicLong;

/** What a runner has done so far, for its live line and summary. */
public final class RunCounters {
  final AtomicLong transitions = new AtomicLong();
  final AtomicLong errors = new AtomicLong();

  /** Transitions recorded, wait states included; errors not. */
  public long transitions() {
    return transitions.get();
  }

  /** Errors as {@link AttemptErrors} defines them: retried, routed by an edge, or failing. */
  public long errors() {
    return errors.get();
  }
}

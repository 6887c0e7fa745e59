package dev.fsm.task;

import java.time.Instant;

/**
 * A runner's claim on a task: who holds it and until when. A task whose lease has expired is
 * claimable again, which is how work held by a dead runner is recovered.
 */
public record Lease(String owner, Instant until) {

  /** True when the lease still holds at {@code now}. */
  public boolean heldAt(Instant now) {
    return until.isAfter(now);
  }
}

package dev.fsm.store;

import dev.fsm.FsmException;

/**
 * A runner tried to record an outcome for a task it no longer holds: its lease expired, or an
 * operator released, paused or killed the task meanwhile. The outcome is discarded.
 */
public final class LeaseLostException extends FsmException {

  private final String id;
  private final String owner;

  public LeaseLostException(String id, String owner) {
    super("runner " + owner + " no longer holds task `" + id + "`; its outcome is discarded");
    this.id = id;
    this.owner = owner;
  }

  /** The task's id. */
  public String id() {
    return id;
  }

  /** The runner that lost the lease. */
  public String owner() {
    return owner;
  }
}

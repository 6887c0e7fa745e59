package dev.fsm.store;

import dev.fsm.FsmException;

/** No task has this id. */
public final class TaskNotFoundException extends FsmException {

  private final String id;

  public TaskNotFoundException(String id) {
    super("no task `" + id + "`; `fsm ls` lists tasks");
    this.id = id;
  }

  /** The id nobody has. */
  public String id() {
    return id;
  }
}

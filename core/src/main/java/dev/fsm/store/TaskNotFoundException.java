package dev.fsm.store;

import dev.fsm.FsmException;

/** No task has this id. */
public final class TaskNotFoundException extends FsmException {

  public TaskNotFoundException(String id) {
    super("no task `" + id + "`; `fsm ls` lists tasks");
  }
}

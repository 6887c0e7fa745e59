package dev.fsm.store;

import dev.fsm.FsmException;

/** A task with this id exists already. */
public final class TaskExistsException extends FsmException {

  private final String id;

  public TaskExistsException(String id) {
    super("a task `" + id + "` exists already; choose another --id, or leave it out to get a"
        + " generated one");
    this.id = id;
  }

  /** The id that is taken. */
  public String id() {
    return id;
  }
}

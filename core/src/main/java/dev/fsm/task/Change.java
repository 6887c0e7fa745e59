package dev.fsm.task;

/** A task's next snapshot and the history entry that explains it, recorded together. */
public record Change(Task next, Transition entry) {

  /**
   * This change, after checking that it is a change to task {@code id}: a store must never let
   * an update of one task overwrite another.
   *
   * @throws IllegalArgumentException when it names another task
   */
  public Change forTask(String id) {
    if (!next.id().equals(id)) {
      throw new IllegalArgumentException("a change to task `" + id + "` names task `"
          + next.id() + "`");
    }
    return this;
  }
}

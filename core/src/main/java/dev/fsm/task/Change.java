package dev.fsm.task;

/** A task's next snapshot and the history entry that explains it, recorded together. */
public record Change(Task next, Transition entry) {

  /** The task's last change is this one: {@link Task#changed} is the entry's time. */
  public Change {
    if (!entry.time().equals(next.changed())) {
      next = next.withChanged(entry.time());
    }
  }

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

  /** This change with the duration of the attempt (or wait) it ends in its history entry. */
  public Change withDuration(long millis) {
    Transition e = entry;
    return new Change(next, new Transition(e.time(), e.from(), e.event(), e.to(), millis,
        e.attempt(), e.by(), e.reason()));
  }
}

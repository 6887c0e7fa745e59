package dev.fsm.store.embedded.recovery;

/** Told how a rebuild of the index is going, for a progress line; called from the rebuilding thread. */
@FunctionalInterface
public interface RebuildProgress {

  /** Nobody is listening. */
  RebuildProgress NONE = (done, total) -> { };

  /**
   * Called every few thousand records and once at the end.
   *
   * @param recordsDone snapshot and journal records applied so far
   * @param recordsTotal how many there are in all
   */
  void progress(long recordsDone, long recordsTotal);
}

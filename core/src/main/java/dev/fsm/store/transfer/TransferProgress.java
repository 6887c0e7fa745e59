package dev.fsm.store.transfer;

/** Told how far an export or import has come, for a progress line on a terminal. */
@FunctionalInterface
public interface TransferProgress {

  /** Tells nothing. */
  TransferProgress NONE = (done, total) -> {};

  /**
   * Called after each batch of tasks.
   *
   * @param done tasks done so far
   * @param total tasks expected, or -1 when unknown
   */
  void tasks(long done, long total);
}

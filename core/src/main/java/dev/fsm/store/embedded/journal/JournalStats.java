package dev.fsm.store.embedded.journal;

/**
 * What a journal has written since it was opened.
 *
 * @param records records made durable
 * @param batches group commits: each wrote everything that was waiting and forced it once
 * @param forces calls to {@code FileChannel.force}, including those for new segments
 * @param bytes record frame bytes written, headers included
 */
public record JournalStats(long records, long batches, long forces, long bytes) {

  /** The average group commit size, 0 before the first one. */
  public double recordsPerBatch() {
    return batches == 0 ? 0 : (double) records / batches;
  }
}

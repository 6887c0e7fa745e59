package dev.fsm.bench;

import java.nio.file.Path;
import java.util.List;

/**
 * What a store benchmark run measures.
 *
 * @param parent the folder in which the run makes, and at the end deletes, its own folder
 * @param tasks how many tasks the at-scale phase stores
 * @param contextBytes the size of each task's JSON context
 * @param seconds how long each throughput measurement runs
 * @param writers the concurrent writer counts to measure throughput with
 * @param claimBatch how many tasks a store writer claims per call
 * @param createBatch how many tasks one bulk {@code create} call stores
 * @param rounds how many times the bare log and the store recording outcomes one by one are
 *     measured in turn with each writer count
 */
public record BenchOptions(Path parent, int tasks, int contextBytes, double seconds,
    List<Integer> writers, int claimBatch, int createBatch, int rounds) {

  /** Tasks a writer claims at a time, as a runner with a few workers would. */
  public static final int DEFAULT_CLAIM_BATCH = 16;

  /** Tasks per bulk create call, as {@code fsm start --from} would send them. */
  public static final int DEFAULT_CREATE_BATCH = 1000;

  public BenchOptions {
    writers = List.copyOf(writers);
    if (tasks < 1 || contextBytes < 2 || !(seconds > 0) || writers.isEmpty() || claimBatch < 1
        || createBatch < 1 || rounds < 1 || writers.stream().anyMatch(w -> w < 1)) {
      throw new IllegalArgumentException("bench options out of range: tasks " + tasks
          + ", context bytes " + contextBytes + ", seconds " + seconds + ", writers " + writers
          + ", rounds " + rounds);
    }
  }
}

package dev.fsm.operations;

import dev.fsm.store.PurgeBatch;
import dev.fsm.store.PurgeQuery;
import dev.fsm.store.Store;
import dev.fsm.store.TaskCount;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a purge to the end, one store batch after another, each a separate hold of the store's
 * lock: what {@code fsm purge} and a runner's retention both do.
 */
public final class Purges {

  private Purges() {}

  /** Purges (or counts, for a dry run) every task the query selects, from its first batch. */
  public static PurgeReport run(Store store, PurgeQuery query, Clock clock) {
    long start = System.nanoTime();
    List<TaskCount> counts = new ArrayList<>();
    Duration longest = Duration.ZERO;
    int batches = 0;
    PurgeQuery next = query;
    while (true) {
      // Each batch ages tasks against its own "now", so a long purge stays exact.
      PurgeBatch batch = store.purge(next, clock.instant());
      batches++;
      counts.addAll(batch.purged());
      if (batch.held().compareTo(longest) > 0) {
        longest = batch.held();
      }
      if (batch.resumeAfter().isEmpty()) {
        break;
      }
      next = next.after(batch.resumeAfter().get());
    }
    return new PurgeReport(PurgeReport.merged(counts), query.dryRun(), batches, longest,
        Duration.ofNanos(System.nanoTime() - start));
  }
}

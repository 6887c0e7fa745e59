package dev.fsm.operations;

import dev.fsm.store.RunnerRecord;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * The runners of a store as {@code fsm runners} and {@code fsm watch} show them: those seen in
 * the last hour, oldest start first, and the store's time they were read at, by which each one's
 * status is told (a reader on another host must not judge a runner by its own clock).
 *
 * @param ended the ids of runners known to have ended without a clean stop however recently
 *     they were seen: those of a store's earlier owners, when one process owns it at a time
 */
public record RunnerReport(Instant at, List<RunnerRecord> runners, Set<String> ended) {

  public RunnerReport {
    runners = runners.stream().sorted(RunnerRecord.ORDER).toList();
    ended = Set.copyOf(ended);
  }

  /** A report that judges every runner by its time. */
  public RunnerReport(Instant at, List<RunnerRecord> runners) {
    this(at, runners, Set.of());
  }

  /** Where a runner stood when the report was read. */
  public RunnerRecord.Status status(RunnerRecord runner) {
    if (!runner.stopped() && ended.contains(runner.id())) {
      return RunnerRecord.Status.GONE;
    }
    return runner.status(at);
  }

  /** The runners serving the store now, in the report's order. */
  public List<RunnerRecord> live() {
    return runners.stream().filter(r -> status(r) == RunnerRecord.Status.RUNNING).toList();
  }
}

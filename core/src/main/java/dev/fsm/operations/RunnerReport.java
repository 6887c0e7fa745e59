package dev.fsm.operations;

import dev.fsm.store.RunnerRecord;
import java.time.Instant;
import java.util.List;

/**
 * The runners of a store as {@code fsm runners} and {@code fsm watch} show them: those seen in
 * the last hour, oldest start first, and the store's time they were read at, by which each one's status is told (a
 * reader on another host must not judge a runner by its own clock).
 */
public record RunnerReport(Instant at, List<RunnerRecord> runners) {

  public RunnerReport {
    runners = runners.stream().sorted(RunnerRecord.ORDER).toList();
  }

  /** Where a runner stood when the report was read. */
  public RunnerRecord.Status status(RunnerRecord runner) {
    return runner.status(at);
  }

  /** The runners serving the store now, in the report's order. */
  public List<RunnerRecord> live() {
    return runners.stream().filter(r -> status(r) == RunnerRecord.Status.RUNNING).toList();
  }
}

package dev.fsm.control;

import dev.fsm.engine.ErrorGroup;
import dev.fsm.engine.ErrorReport;
import dev.fsm.engine.StateStats;
import dev.fsm.operations.BulkSendReport;
import dev.fsm.operations.PurgeReport;
import dev.fsm.operations.RunnerReport;
import dev.fsm.operations.UpgradeReport;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.RunnerRecord;
import dev.fsm.store.TaskCount;
import dev.fsm.store.VersionCount;
import dev.fsm.store.transfer.ExportPage;
import dev.fsm.task.Lease;
import dev.fsm.task.Pausing;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Values with the awkward parts a wire format gets wrong: nanos, nulls, unicode, size. */
final class Samples {

  static final Instant T = Instant.ofEpochSecond(1_763_000_000L, 123_456_789);
  static final Instant BEFORE_1970 = Instant.ofEpochSecond(-86_401L, 999_999_999);

  private Samples() {}

  /** A task with every field set. */
  static Task task(String id, String context) {
    return new Task(id, "order", "0123456789ab", "pay", TaskStatus.SLEEPING, context, 3,
        List.of(new TaskError(T, "exit 2: carte refusée ❌"), new TaskError(BEFORE_1970, "")),
        T, T.plusNanos(1), BEFORE_1970, T.plusSeconds(600), new Lease("runner-1/w2", T),
        new Pausing(T.plusSeconds(1), "user:ann", "deploy ✓"));
  }

  /** A task with every optional field null. */
  static Task bare(String id) {
    return new Task(id, "order", "0123456789ab", "done", TaskStatus.COMPLETED, "{}", 0, List.of(),
        T, T, null, null, null);
  }

  static List<Transition> history() {
    return List.of(new Transition(T, "pay", "ok", "ship", 1234, 1, "runner 7/w1", ""),
        new Transition(BEFORE_1970, "ship", "pause", "ship", 0, 0, "operator", "«maintenance»"));
  }

  /** A page of two tasks, the second with no history; the last page after {@code t9}. */
  static ExportPage exportPage(String after) {
    return new ExportPage(List.of(new TaskHistory(task("t1", "{\"ü\":[1,2]}"), history()),
        new TaskHistory(bare("t2"), List.of())), "t9".equals(after) ? null : "t2");
  }

  static List<TaskCount> counts() {
    return List.of(new TaskCount("order", "pay", TaskStatus.RUNNABLE, 5_000_000_000L),
        new TaskCount("order", "ship", TaskStatus.FAULT, 1));
  }

  static List<StateStats> stats() {
    return List.of(
        new StateStats("order", "pay", Map.of(TaskStatus.RUNNABLE, 3L, TaskStatus.PAUSED, 1L),
            42, Duration.ofNanos(1_500_000_001L), Duration.ofSeconds(30, 7),
            Duration.ofDays(3), 0.1 + 0.2, "p95 = 1.2s"),
        new StateStats("order", "ship", Map.of(), 0, null, null, null, Double.NaN, "none"));
  }

  static List<MachineVersion> versions() {
    return List.of(new MachineVersion("order", "0123456789ab", 1, T, "machine: order\n"),
        new MachineVersion("order", "ba9876543210", 2, BEFORE_1970, "machine: order # ✓\n"));
  }

  static BulkSendReport report(boolean dryRun) {
    return new BulkSendReport(3, List.of("a", "b"),
        List.of(new BulkSendReport.Refusal("c", "task `c` is completed; no command changes it")),
        dryRun);
  }

  static UpgradeReport upgrade(boolean dryRun) {
    return new UpgradeReport("order", 3, "0123456789ab", !dryRun, "upgrade",
        List.of(new UpgradeReport.FromVersion(1, "ba9876543210", 0, 4, 1, Map.of("ship", 1),
            Map.of("pay", 2, "ünïcødé", 1), 0),
            new UpgradeReport.FromVersion(2, "abcdefabcdef", 1, 0, 0, Map.of(), Map.of(), 0)),
        dryRun);
  }

  static List<VersionCount> versionCounts() {
    return List.of(new VersionCount("order", "0123456789ab", "pay", TaskStatus.RUNNABLE, 3),
        new VersionCount("order", "ba9876543210", "ünïcødé", TaskStatus.KILLED, 1));
  }

  /**
   * Runners of every status, one with machines and a fractional rate, one seen a second ago but
   * known to have ended, at nanosecond times.
   */
  static RunnerReport runners() {
    Instant at = Instant.parse("2026-11-25T01:00:10.123456789Z");
    return new RunnerReport(at, List.of(
        new RunnerRecord("runner:12@a", "a", 12, 4, List.of("order", "ünïcødé"),
            at.minusSeconds(600), at.minusSeconds(1), 3, 123.456, false),
        new RunnerRecord("runner:98@b", "b", 98, 1, List.of(), at.minusSeconds(900),
            at.minusSeconds(300), 0, 0, false),
        new RunnerRecord("runner:7@c", "c", 7, 16, List.of(), at.minusSeconds(1200),
            at.minusSeconds(100), 0, 0.5, true),
        new RunnerRecord("runner:5@d", "d", 5, 2, List.of(), at.minusSeconds(60),
            at.minusSeconds(1), 2, 3, false)), java.util.Set.of("runner:5@d"));
  }

  static PurgeReport purged(boolean dryRun) {
    return new PurgeReport(List.of(new TaskCount("order", "done", TaskStatus.COMPLETED, 90_000),
        new TaskCount("ünïcødé", "x", TaskStatus.KILLED, 1)), dryRun, 451,
        Duration.ofNanos(4_123_456), Duration.ofSeconds(12, 5));
  }

  /** Two of five groups, one in unicode, at nanosecond times. */
  static ErrorReport errors() {
    Instant at = Instant.parse("2026-11-25T01:00:10.123456789Z");
    return new ErrorReport(at.minusSeconds(86_400), 1_003, 5, List.of(
        new ErrorGroup("connection to <ip>:<n> refused after <n> ms", "order", "pay", 1_000, 998,
            at.minusSeconds(3_600), at, "connection to 10.0.0.7:5432 refused after 3012 ms",
            "01JD0000000000000000000000"),
        new ErrorGroup("Zoë \"<text>\" ‽", "ünïcødé", "x", 3, 1, at.minusSeconds(5),
            at.minusSeconds(5), "Zoë \"a\" ‽", "t1")));
  }
}

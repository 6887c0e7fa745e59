package dev.fsm.cli.verb.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.engine.Contexts;
import dev.fsm.engine.StateStats;
import dev.fsm.operations.BulkSendReport;
import dev.fsm.operations.MachineBreaker;
import dev.fsm.operations.RunnerReport;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.RunnerRecord;
import dev.fsm.task.Lease;
import dev.fsm.task.Pausing;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The task verbs' JSON documents, pinned to fixed expected text in {@code golden/}: the keys,
 * their order, the layout and how values print are part of the contract (SPEC: stable keys).
 */
class TaskJsonTest {

  private static final Instant T = Instant.parse("2030-01-31T09:00:00.123456Z");
  private static final Task FULL = new Task("a1", "order", "e9c446f974f6", "ship",
      TaskStatus.SLEEPING, "{\"n\":1,\"tags\":[\"x\"],\"deep\":{\"e\":[],\"o\":{}}}", 2,
      List.of(new TaskError(T, "carrier down \"quoted\"\nline"),
          new TaskError(Instant.EPOCH, "again")),
      T, T, T.plusSeconds(1), T.plusSeconds(60), new Lease("runner-1/w2", T.plusSeconds(30)));
  private static final Task BARE = new Task("a2", "order", "v", "pay", TaskStatus.PAUSED, "{}",
      0, List.of(), T, T, null, null, null);
  private static final String ODD = "{\"f\": 1.0, \"g\": 1e300, \"h\": -0.0, \"i\": 0.1,"
      + " \"j\": 12345678901234567890123, \"k\": -9223372036854775808, \"l\": 2147483648,"
      + " \"m\": 1E-7, \"s\": \"tab\\t quote\\\" slash\\\\ \\u0001 \\u2028 \\ud83d\\ude00"
      + " </script> caf\u00e9\", \"nested\": {\"list\": [[], {}, [null, false, true,"
      + " {\"x\": [1, 2]}]], \"empty\": \"\"}}";
  private static final Transition PAID =
      new Transition(T, "pay", "ok", "ship", 1500, 1, "runner-1/w1", "");
  private static final Transition PAUSED = new Transition(T.plusSeconds(5), "ship", "pause",
      "ship", 0, 0, "operator", "carrier \"strike\"");

  /** The status as stored: these tasks are in states that run actions. */
  private static ShownStatus stored(Task t) {
    return ShownStatus.of(t.status(), false);
  }

  @Test
  void aTaskHasItsKeysInOrderWithTheContextAsAnObject() {
    assertThat(print(g -> TaskJson.task(g, FULL, stored(FULL)))).isEqualTo(golden("task.json"));
  }

  @Test
  void aPauseWaitingForTheRunningStepSaysWhenWhoAndWhy() {
    Task pausing = FULL.withPausing(new Pausing(T.plusSeconds(2), "user:ann",
        "deploy \"window\""));
    assertThat(print(g -> TaskJson.task(g, pausing, stored(pausing))))
        .isEqualTo(golden("task-pausing.json"));
  }

  @Test
  void missingTimesAndLeaseAreNull() {
    assertThat(print(g -> TaskJson.task(g, BARE, stored(BARE))))
        .isEqualTo(golden("task-bare.json"));
  }

  @Test
  void tasksAreAnArrayEvenWhenThereAreNone() {
    assertThat(print(g -> TaskJson.tasks(g, List.of(BARE, FULL), TaskJsonTest::stored)))
        .isEqualTo(golden("tasks.json"));
    assertThat(print(g -> TaskJson.tasks(g, List.of(), TaskJsonTest::stored)))
        .isEqualTo(golden("tasks-none.json"));
  }

  /**
   * The stored context is not always printed as stored ({@code 1e300} is kept as {@code 1E+300}):
   * documents re-print it as Jackson's tree model does ({@code 1.0E300}), indented or not.
   */
  @Test
  void aContextPrintsItsNumbersAndStringsAsJacksonsTreeModelDoes() {
    Task task = new Task("t-2", "m", "v1", "b", TaskStatus.RUNNABLE, Contexts.parse(ODD, "test"),
        3, List.of(), T, T, null, Instant.parse("+12345-01-01T00:00:00Z"),
        new Lease("runner:1", T.plusNanos(1)));
    assertThat(print(g -> TaskJson.task(g, task, stored(task))))
        .isEqualTo(golden("task-context.json"));
    assertThat(line(g -> TaskJson.task(g, task, stored(task))))
        .isEqualTo(golden("task-context.jsonl"));
  }

  @Test
  void showsTextPrintsTheContextIndentedAsTheJsonDocumentsDo() {
    String context = Contexts.parse(ODD, "test");
    assertThat(JsonDocument.indented(g -> JsonDocument.copy(g, context)) + "\n")
        .isEqualTo(golden("context.txt"));
    assertThat(JsonDocument.indented(g -> JsonDocument.copy(g, "{}"))).isEqualTo("{ }");
  }

  @Test
  void aStoredContextThatIsNotJsonIsAnInternalErrorAndPrintsNothing() {
    Task broken = new Task("a3", "order", "v", "pay", TaskStatus.PAUSED, "{\"n\":", 0,
        List.of(), T, T, null, null, null);
    StringWriter text = new StringWriter();
    assertThatThrownBy(() -> JsonDocument.print(new PrintWriter(text, true),
        g -> TaskJson.task(g, broken, stored(broken))))
        .isInstanceOf(IllegalStateException.class).hasMessage("a stored context is not JSON");
    assertThat(text.toString()).isEmpty();
  }

  @Test
  void showAddsTheHistoryOldestFirst() {
    assertThat(print(g -> TaskJson.taskWithHistory(g, FULL,
        ShownStatus.of(FULL.status(), false), List.of(PAID, PAUSED))))
        .isEqualTo(golden("show.json"));
    assertThat(print(g -> TaskJson.taskWithHistory(g, BARE,
        ShownStatus.of(BARE.status(), false), List.of())))
        .isEqualTo(golden("show-no-history.json"));
  }

  @Test
  void historyEntriesHaveTheirKeysInOrder() {
    assertThat(print(g -> TaskJson.history(g, List.of(PAID, PAUSED))))
        .isEqualTo(golden("history.json"));
  }

  @Test
  void statsNameEveryStatusAndLeaveMissingPercentilesNull() {
    List<StateStats> stats = List.of(
        new StateStats("order", "pay", Map.of(TaskStatus.RUNNABLE, 3L, TaskStatus.FAULT, 1L),
            120, Duration.ofMillis(250), Duration.ofMillis(1200), Duration.ofSeconds(3), 0.0625,
            "p95 = 1.2s"),
        new StateStats("order", "ship", Map.of(), 0, null, null, null, 0.0, "none"),
        new StateStats("order", "x", Map.of(TaskStatus.COMPLETED, 7L), 3, Duration.ZERO,
            Duration.ofNanos(1_500_000), Duration.ofDays(2), 1.0 / 3, "30s"),
        new StateStats("order", "sign", Map.of(TaskStatus.RUNNABLE, 4L), 0, null, null, null,
            0.0, "none"));
    // As the verb shows them: runnable tasks in the signal state "sign" are waiting.
    assertThat(print(g -> TaskJson.stats(g, stats, s -> {
      Map<ShownStatus, Long> shown = new EnumMap<>(ShownStatus.class);
      s.counts().forEach((status, n) -> shown.put(
          ShownStatus.of(status, s.state().equals("sign")), n));
      return shown;
    }, Map.of("order", new MachineBreaker("order", "open", 0.75, 20, T.plusSeconds(30))))))
        .isEqualTo(golden("stats.json"));
  }

  @Test
  void machinesListTheirVersionsAndTasksByStatus() {
    List<MachineVersion> versions = List.of(new MachineVersion("order", "e9c446f974f6", 1, T, "x"),
        new MachineVersion("order", "0123456789ab", 2, T.plusSeconds(3600), "y"));
    assertThat(print(g -> {
      g.writeStartArray();
      TaskJson.machine(g, "order", "machines/order.yaml", true, versions,
          Map.of(ShownStatus.SLEEPING, 2L, ShownStatus.WAITING, 3L),
          Map.of("e9c446f974f6", Map.of(ShownStatus.SLEEPING, 2L),
              "0123456789ab", Map.of(ShownStatus.WAITING, 3L)),
          MachineBreaker.closed("order"));
      TaskJson.machine(g, "gone", null, null, List.of(), Map.of(), Map.of(),
          MachineBreaker.none("gone"));
      g.writeEndArray();
    })).isEqualTo(golden("machines.json"));
  }

  @Test
  void bulkSendSaysWhatChangedAndWhatRefused() {
    BulkSendReport sent = new BulkSendReport(3, List.of("a1", "a2"),
        List.of(new BulkSendReport.Refusal("a3", "task `a3` is completed; nothing to pause")),
        false);
    assertThat(print(g -> TaskJson.bulkSend(g, "pause", sent)))
        .isEqualTo(golden("bulk-send.json"));
    BulkSendReport none = new BulkSendReport(0, List.of(), List.of(), true);
    assertThat(print(g -> TaskJson.bulkSend(g, "resume", none)))
        .isEqualTo(golden("bulk-send-dry-run.json"));
  }

  @Test
  void tailStreamsOneCompactLinePerEntry() {
    assertThat(line(g -> TaskJson.tailEntry(g, FULL, PAUSED))).isEqualTo(golden("tail.jsonl"));
  }

  @Test
  void watchStreamsOneCompactLinePerRefreshWithOnlyTheStatusesThatHaveTasks() {
    Map<ShownStatus, Long> counts = new EnumMap<>(ShownStatus.class);
    counts.put(ShownStatus.FAULT, 1L);
    counts.put(ShownStatus.RUNNABLE, 2L);
    assertThat(line(g -> TaskJson.watchFrame(g, T, RUNNERS, counts, List.of(BARE, FULL),
        t -> ShownStatus.of(t.status(), false))))
        .isEqualTo(golden("watch.jsonl"));
    assertThat(line(g -> TaskJson.watchFrame(g, Instant.parse("2030-01-31T09:00:00Z"),
        new RunnerReport(T, List.of()), Map.of(), List.of(), t -> ShownStatus.RUNNABLE)))
        .isEqualTo(golden("watch-empty.jsonl"));
  }

  /** A live runner claiming some machines, one gone, one stopped: the store's time decides. */
  private static final RunnerReport RUNNERS = new RunnerReport(T, List.of(
      new RunnerRecord("runner:12@a", "a", 12, 4, List.of("order"), T.minusSeconds(600),
          T.minusMillis(1500), 3, 41.25, false),
      new RunnerRecord("runner:98@b", "b", 98, 2, List.of(), T.minusSeconds(900),
          T.minusSeconds(300), 1, 0, false),
      new RunnerRecord("runner:7@c", "c", 7, 1, List.of(), T.minusSeconds(1200),
          T.minusSeconds(100), 0, 0, true)));

  @Test
  void runnersPrintTheStoreTimeTheLiveCountAndEveryRunnerWithItsStatus() {
    assertThat(print(g -> TaskJson.runners(g, RUNNERS))).isEqualTo(golden("runners.json"));
    assertThat(print(g -> TaskJson.runners(g, new RunnerReport(T, List.of()))))
        .isEqualTo(golden("runners-none.json"));
  }

  private static String print(JsonDocument.Value value) {
    StringWriter text = new StringWriter();
    JsonDocument.print(new PrintWriter(text, true), value);
    return text.toString();
  }

  private static String line(JsonDocument.Value value) {
    StringWriter text = new StringWriter();
    JsonDocument.line(new PrintWriter(text, true), value);
    return text.toString();
  }

  private static String golden(String name) {
    try (InputStream in = TaskJsonTest.class.getResourceAsStream("golden/" + name)) {
      assertThat(in).as("golden/" + name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError("cannot read golden/" + name, e);
    }
  }
}

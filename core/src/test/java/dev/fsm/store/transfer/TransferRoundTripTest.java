package dev.fsm.store.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.store.MachineVersion;
import dev.fsm.store.Store;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Lease;
import dev.fsm.task.Pausing;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Export then import gives the same versions, snapshots and histories, whatever they hold. */
class TransferRoundTripTest {

  static final Instant T0 = Instant.parse("2026-11-21T10:00:00.123456789Z");
  static final String V1 = "name: order\nstates:\n  ship: {action: ship.sh}\n";
  static final String V2 = "name: order\n# \"quoted\" ünïcode ✓\nstates:\n  ship: {}\n";

  /** History entries of {@link #source()}: task i has i % 7. */
  static final long ENTRIES = java.util.stream.IntStream.range(0, 1234).map(i -> i % 7).sum();

  /** Contexts an export must carry byte for byte. */
  static final List<String> ODD_CONTEXTS = List.of(
      "{}",
      "{\"to\":\"Zoë \\\"Q\\\" Ünal 🚚\",\"tab\":\"a\\tb\",\"nl\":\"x\\ny\"}",
      "{\"n\":2.50,\"big\":1e400,\"neg\":-0,\"int\":12345678901234567890123}",
      "{\"sep\":\"\u2028\u2029\",\"ctl\":\"\\u0000\\u001f\",\"slash\":\"a\\/b\"}",
      "{\"deep\":" + "[".repeat(100) + "{\"k\":null}" + "]".repeat(100) + "}",
      "{\"a\":{\"b\":[true,false,null,\"\"]},\"\":\"empty key\"}");

  /** A store with two machines, a rollback version and tasks of every kind. */
  static Store source() {
    Store s = new InMemoryStore();
    MachineVersion a1 = s.register("order", V1, T0);
    s.register("order", V2, T0.plusSeconds(60));
    MachineVersion a3 = s.register("order", V1, T0.plusSeconds(120));
    MachineVersion b1 = s.register("refund", "name: refund\n", T0.plusNanos(1));
    List<TaskHistory> tasks = new ArrayList<>();
    for (int i = 0; i < 1234; i++) {
      TaskStatus status = TaskStatus.values()[i % TaskStatus.values().length];
      MachineVersion v = i % 3 == 0 ? a1 : i % 3 == 1 ? a3 : b1;
      Instant due = status.isTerminal() || status == TaskStatus.PAUSED ? null
          : T0.plusMillis(i);
      Task t = new Task(String.format("t-%05d", i), v.machine(), v.version(), "ship", status,
          ODD_CONTEXTS.get(i % ODD_CONTEXTS.size()), i % 5,
          i % 4 == 0 ? List.of(new TaskError(T0, "exit 3: \"boom\"\n  at line ✗")) : List.of(),
          T0.minusSeconds(i), T0.plusNanos(i), i % 2 == 0 ? null : T0, due,
          i % 11 == 0 ? new Lease("old-runner", T0.plusSeconds(30)) : null,
          i % 13 == 0 ? new Pausing(T0, "ann", "après") : null);
      List<Transition> history = new ArrayList<>();
      for (int k = 0; k < i % 7; k++) {
        history.add(new Transition(T0.plusNanos(k), "s" + k, "évent " + k, "s" + (k + 1), k,
            k, "runner/" + k, k % 2 == 0 ? "" : "reason \"" + k + "\""));
      }
      tasks.add(new TaskHistory(t, history));
    }
    s.restore(tasks);
    return s;
  }

  static String export(Store s) throws IOException {
    StringWriter out = new StringWriter();
    StoreExport.run(s, out, "1.2.3", T0, TransferProgress.NONE);
    return out.toString();
  }

  static StoreImport importer(Store into, String text, boolean skip) {
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    return new StoreImport(into, "target", () -> new ByteArrayInputStream(bytes), "dump.jsonl",
        skip, TransferProgress.NONE);
  }

  @Test
  void anExportImportsIntoAnotherStoreAsTheSameVersionsTasksAndHistories() throws IOException {
    Store from = source();
    String text = export(from);
    Store to = new InMemoryStore();
    StoreImport.Report r = importer(to, text, false).run();

    assertThat(r.imported()).isEqualTo(new TransferCounts(4, 1234, ENTRIES));
    assertThat(r.skipped()).isZero();
    assertThat(to.allVersions()).isEqualTo(from.allVersions());
    List<Task> all = from.list(TaskQuery.all(5000));
    assertThat(to.list(TaskQuery.all(5000))).isEqualTo(all.stream()
        .map(t -> t.withLease(null)).toList());
    for (Task t : all) {
      assertThat(to.history(t.id())).isEqualTo(from.history(t.id()));
    }
    assertThat(export(to)).as("an import exports as the file it came from, but leases")
        .isEqualTo(text.replace("{\"owner\":\"old-runner\",\"until\":\"2026-11-21T10:00:30"
            + ".123456789Z\"}", "null"));
  }

  @Test
  void theFileIsAHeaderVersionsTasksAndAnEndLineEachOneJsonObject() throws IOException {
    String[] lines = export(source()).split("\n", -1);
    assertThat(lines).hasSize(1 + 4 + 1234 + 1 + 1);
    assertThat(lines[0]).isEqualTo("{\"type\":\"header\",\"format\":\"fsm-export\",\"version\":1,"
        + "\"fsm\":\"1.2.3\",\"exported_at\":\"2026-11-21T10:00:00.123456789Z\"}");
    assertThat(lines[1]).startsWith("{\"type\":\"machine_version\",\"machine\":\"order\","
        + "\"number\":1,\"id\":\"" + MachineVersion.idOf(V1) + "\",\"registered\":");
    assertThat(lines[5]).startsWith("{\"type\":\"task\",\"id\":\"t-00000\",");
    assertThat(lines[6]).contains(",\"context\":" + ODD_CONTEXTS.get(1) + ",");
    assertThat(lines[1239]).isEqualTo("{\"type\":\"end\",\"machine_versions\":4,\"tasks\":1234,"
        + "\"history_entries\":" + (ENTRIES) + "}");
    assertThat(lines[1240]).isEmpty();
  }

  @Test
  void theReaderGivesBackWhatTheWriterWrote() throws IOException {
    StringWriter out = new StringWriter();
    TransferWriter w = new TransferWriter(out);
    MachineVersion v = new MachineVersion("m", "abcdefabcdef", 1, T0, "name: m\n");
    TaskHistory t = new TaskHistory(new Task("x", "m", "abcdefabcdef", "s", TaskStatus.FAULT,
        ODD_CONTEXTS.get(3), 2, List.of(new TaskError(T0, "e")), T0, T0, T0, T0,
        new Lease("r", T0), new Pausing(T0, "b", "")),
        List.of(new Transition(T0, "a", "b", "c", Long.MAX_VALUE, 3, "d", "e")));
    List<TransferRecord> records = List.of(new TransferRecord.Header(1, "9.9", T0),
        new TransferRecord.Version(v), new TransferRecord.TaskLine(t),
        new TransferRecord.End(new TransferCounts(1, 1, 1)));
    for (TransferRecord r : records) {
      w.write(r);
    }
    List<TransferRecord> read = new ArrayList<>();
    try (TransferReader r = new TransferReader(new ByteArrayInputStream(
        out.toString().getBytes(StandardCharsets.UTF_8)), "f")) {
      for (Optional<TransferRecord> next = r.next(); next.isPresent(); next = r.next()) {
        read.add(next.get());
      }
    }
    assertThat(read).isEqualTo(records);
  }

  @Test
  void anEmptyStoreExportsAndImportsAsNothing() throws IOException {
    String text = export(new InMemoryStore());
    assertThat(text.split("\n")).hasSize(2);
    Store to = new InMemoryStore();
    assertThat(importer(to, text, false).run().imported()).isEqualTo(TransferCounts.NONE);
    assertThat(to.allVersions()).isEmpty();
  }
}

package dev.fsm.store.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.store.Store;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A file that is not a whole, sound export is refused in one line naming the file, the line and
 * what is wrong, and an import of it writes nothing.
 */
class TransferReaderTest {

  private static final String HEADER = "{\"type\":\"header\",\"format\":\"fsm-export\","
      + "\"version\":1,\"fsm\":\"1.0\",\"exported_at\":\"2026-11-25T04:00:00Z\"}";
  private static final String VERSION = "{\"type\":\"machine_version\",\"machine\":\"m\","
      + "\"number\":1,\"id\":\"aaaaaaaaaaaa\",\"registered\":\"2026-11-25T04:00:00Z\","
      + "\"definition\":\"name: m\\n\"}";
  private static final String END = "{\"type\":\"end\",\"machine_versions\":1,\"tasks\":1,"
      + "\"history_entries\":1}";

  private static String task(String id) {
    return "{\"type\":\"task\",\"id\":\"" + id + "\",\"machine\":\"m\",\"version\":"
        + "\"aaaaaaaaaaaa\",\"state\":\"s\",\"status\":\"runnable\",\"context\":{\"k\": [1, 2]},"
        + "\"attempt\":0,\"errors\":[],\"created\":\"2026-11-25T04:00:00Z\",\"state_entered\":"
        + "\"2026-11-25T04:00:00Z\",\"last_attempt\":null,\"due\":\"2026-11-25T04:00:00Z\","
        + "\"lease\":null,\"pausing\":null,\"history\":[{\"time\":\"2026-11-25T04:00:00Z\","
        + "\"from\":\"new\",\"event\":\"start\",\"to\":\"s\",\"duration_ms\":0,\"attempt\":0,"
        + "\"by\":\"ann\",\"reason\":\"\"}]}";
  }

  private static final String GOOD = HEADER + "\n" + VERSION + "\n" + task("t1") + "\n" + END
      + "\n";

  private static List<TransferRecord> read(String text) throws IOException {
    List<TransferRecord> all = new ArrayList<>();
    try (TransferReader r = new TransferReader(new ByteArrayInputStream(text.getBytes(
        java.nio.charset.StandardCharsets.UTF_8)), "dump.jsonl")) {
      for (Optional<TransferRecord> n = r.next(); n.isPresent(); n = r.next()) {
        all.add(n.get());
      }
    }
    return all;
  }

  private static void refused(String text, String message) {
    assertThatThrownBy(() -> read(text)).isInstanceOf(TransferFileException.class)
        .hasMessage(message);
  }

  @Test
  void aGoodFileReadsWithItsContextTextAsWritten() throws IOException {
    List<TransferRecord> r = read(GOOD.replace("\n", "\r\n"));
    assertThat(r).hasSize(4);
    Task t = ((TransferRecord.TaskLine) r.get(2)).task().task();
    assertThat(t.context()).isEqualTo("{\"k\": [1, 2]}");
    assertThat(t.status()).isEqualTo(TaskStatus.RUNNABLE);
    assertThat(t.lastAttempt()).isNull();
  }

  @Test
  void aTasksLastChangeIsReadAndAFileWithoutItTakesItsNewestEntry() throws IOException {
    String killed = task("t1").replace("}]}", "},{\"time\":\"2026-11-25T05:00:00Z\","
        + "\"from\":\"s\",\"event\":\"kill\",\"to\":\"s\",\"duration_ms\":0,"
        + "\"attempt\":0,\"by\":\"ann\",\"reason\":\"\"}]}");
    String good = GOOD.replace("\"history_entries\":1", "\"history_entries\":2");
    Task old = ((TransferRecord.TaskLine) read(good.replace(task("t1"), killed)).get(2)).task()
        .task();
    assertThat(old.changed()).isEqualTo(Instant.parse("2026-11-25T05:00:00Z"));
    String stated = killed.replace("\"pausing\":null,", "\"pausing\":null,"
        + "\"changed\":\"2026-11-25T06:00:00.5Z\",");
    Task now = ((TransferRecord.TaskLine) read(good.replace(task("t1"), stated)).get(2)).task()
        .task();
    assertThat(now.changed()).isEqualTo(Instant.parse("2026-11-25T06:00:00.5Z"));
  }

  @Test
  void aNewerFormatVersionIsRefusedInOneLine() {
    refused(HEADER.replace("\"version\":1", "\"version\":2").replace("1.0", "3.1") + "\n",
        "dump.jsonl is in export format version 2, written by fsm 3.1; this fsm reads version 1"
            + " only: import it with the fsm that wrote it, or a newer one");
  }

  @Test
  void somethingElseIsNotAnExport() {
    refused("", "dump.jsonl is empty: it is not an fsm export");
    refused("{\"a\":1}\n", "dump.jsonl is not an fsm export: its first line has no \"format\":"
        + " \"fsm-export\"");
    refused("name: order\n", "dump.jsonl line 1: not valid JSON (Unrecognized token 'name':"
        + " was expecting (JSON String, Number, Array, Object or token 'null', 'true' or"
        + " 'false') at column 5)");
    assertThatThrownBy(() -> read(HEADER + "\n\u0000\u00ff".repeat(1)))
        .isInstanceOf(TransferFileException.class).hasMessageStartingWith("dump.jsonl line 2:");
  }

  @Test
  void aFileCutShortIsRefused() {
    refused(HEADER + "\n" + VERSION + "\n" + task("t1") + "\n", "dump.jsonl ends after line 3"
        + " without its end line: the export was cut short (or is still being written);"
        + " export again");
    String cut = GOOD.substring(0, GOOD.indexOf("\"attempt\":0,\"errors\""));
    assertThatThrownBy(() -> read(cut)).isInstanceOf(TransferFileException.class)
        .hasMessageStartingWith("dump.jsonl line 3: not valid JSON (Unexpected end-of-input");
  }

  @Test
  void malformedLinesAreNamedWithWhatIsWrong() {
    String t = task("t1");
    refused(GOOD.replace(t, t.replace("\"runnable\"", "\"sleepy\"")), "dump.jsonl line 3: task"
        + " `t1`: \"status\" is \"sleepy\", not a task status");
    refused(GOOD.replace(t, t.replace("\"created\":\"2026-11-25T04:00:00Z\"",
        "\"created\":\"yesterday\"")), "dump.jsonl line 3: task `t1`: \"created\" is"
        + " \"yesterday\", not an ISO-8601 time such as 2026-11-25T04:00:00.123456Z");
    refused(GOOD.replace(t, t.replace("\"duration_ms\":0", "\"duration_ms\":-5")),
        "dump.jsonl line 3: task `t1`: \"duration_ms\" is not a whole number of 0 or more");
    refused(GOOD.replace(t, t.replace("{\"k\": [1, 2]}", "[1]")), "dump.jsonl line 3: task"
        + " `t1`: \"context\" is not a JSON object");
    refused(GOOD.replace(t, t.replace("\"history\":[{", "\"history\":[7,{")), "dump.jsonl line"
        + " 3: task `t1`: history entry 1 is not a JSON object");
    refused(GOOD.replace(t, t.replace("\"aaaaaaaaaaaa\",\"state\"", "\"bbbbbbbbbbbb\","
        + "\"state\"")), "dump.jsonl line 3: task `t1`: it is pinned to version bbbbbbbbbbbb"
        + " of machine m, which no machine_version line before it holds");
    refused(GOOD.replace(t, t.replace("\"state\":\"s\",", "\"state\":\"s\",\"state\":\"x\",")),
        "dump.jsonl line 3: not valid JSON (Duplicate field 'state' at column 84)");
    refused(GOOD.replace(t, "{\"type\":\"tusk\"}"), "dump.jsonl line 3: unknown line type"
        + " \"tusk\" (this fsm knows header, machine_version, task and end)");
    refused(GOOD.replace(t, t + "\n" + VERSION), "dump.jsonl line 4: a machine_version line"
        + " after task lines; every machine version comes before the tasks");
    refused(GOOD.replace(t, task("bad id!")), "dump.jsonl line 3: task id `bad id!` is not"
        + " allowed: use 1 to 128 letters, digits and . _ : @ -, starting with a letter or"
        + " digit");
    refused(GOOD.replace(t, task("a\\nb")), "dump.jsonl line 3: task id `a\\nb` is not"
        + " allowed: use 1 to 128 letters, digits and . _ : @ -, starting with a letter or"
        + " digit");
    refused(GOOD.replace(t, task("t2") + "\n" + task("t1")), "dump.jsonl line 4: task `t1`"
        + " after task `t2`: tasks come in id order");
    refused(GOOD + "\n", "dump.jsonl line 5: a line after the end line; the file was changed"
        + " after it was written");
    refused(GOOD.replace("\"tasks\":1", "\"tasks\":2"), "dump.jsonl line 4: the end line counts"
        + " 1 machine version, 2 tasks, 1 history entry, but the file holds 1 machine version,"
        + " 1 task, 1 history entry; it was changed after it was written");
  }

  @Test
  void anImportOfABadFileWritesNothingAndSaysSo() {
    Store to = new InMemoryStore();
    String bad = HEADER + "\n" + VERSION + "\n" + task("t1") + "\n" + task("t2") + "\n";
    assertThatThrownBy(() -> TransferRoundTripTest.importer(to, bad, false).run())
        .isInstanceOf(TransferFileException.class).hasMessage("dump.jsonl ends after line 4"
            + " without its end line: the export was cut short (or is still being written);"
            + " export again; nothing was imported");
    assertThat(to.allVersions()).isEmpty();
    assertThat(to.list(TaskQuery.all(10))).isEmpty();
  }

  @Test
  void takenIdsAreRefusedUnlessSkippedAndThenCounted() throws IOException {
    Store from = TransferRoundTripTest.source();
    String text = TransferRoundTripTest.export(from);
    Store to = new InMemoryStore();
    to.restore(List.of(new dev.fsm.task.TaskHistory(from.get("t-00700").orElseThrow(),
        List.of())));
    assertThatThrownBy(() -> TransferRoundTripTest.importer(to, text, false).run())
        .isInstanceOf(FsmException.class).hasMessage("task `t-00700` exists already in store"
            + " target; nothing was imported. Import into a new store, or pass --skip-existing"
            + " to import only the tasks it does not have.");
    assertThat(to.list(TaskQuery.all(10))).hasSize(1);
    assertThat(to.allVersions()).isEmpty();

    StoreImport.Report r = TransferRoundTripTest.importer(to, text, true).run();
    assertThat(r.skipped()).isEqualTo(1);
    assertThat(r.imported().tasks()).isEqualTo(1233);
    assertThat(to.history("t-00700")).as("the store's own task is kept").isEmpty();
    StoreImport.Report again = TransferRoundTripTest.importer(to, text, true).run();
    assertThat(again.skipped()).isEqualTo(1234);
    assertThat(again.imported()).isEqualTo(TransferCounts.NONE);
    assertThat(again.versionsKnown()).isEqualTo(4);
  }

  @Test
  void aStoreWithOtherVersionsOfAMachineIsRefused() throws IOException {
    String text = TransferRoundTripTest.export(TransferRoundTripTest.source());
    Store to = new InMemoryStore();
    to.register("order", TransferRoundTripTest.V2, TransferRoundTripTest.T0);
    assertThatThrownBy(() -> TransferRoundTripTest.importer(to, text, false).run())
        .isInstanceOf(FsmException.class).hasMessageStartingWith("machine order version 1 is ")
        .hasMessageEndingWith(" in store target: the store has its own versions of order;"
            + " nothing was imported. Import into a store without machine order.");
    assertThat(to.list(TaskQuery.all(10))).isEmpty();
  }
}

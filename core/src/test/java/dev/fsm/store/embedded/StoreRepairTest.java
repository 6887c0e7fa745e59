package dev.fsm.store.embedded;

import static dev.fsm.store.embedded.Workload.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.store.StoreLocation;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.store.embedded.event.StoreEventCodec;
import dev.fsm.store.embedded.journal.Journal;
import dev.fsm.store.embedded.journal.JournalDamagedException;
import dev.fsm.store.embedded.journal.JournalSalvage;
import dev.fsm.store.embedded.journal.SnapshotFile;
import dev.fsm.store.embedded.recovery.CleanMarker;
import dev.fsm.store.embedded.repair.RepairFolders;
import dev.fsm.store.embedded.repair.RepairReport;
import dev.fsm.store.embedded.repair.RepairReport.LostTask;
import dev.fsm.store.embedded.repair.RepairReport.Range;
import dev.fsm.task.Command;
import dev.fsm.task.Commands;
import dev.fsm.task.Task;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fsm store repair} keeps every record it can prove and names exactly what it lost: known
 * records are damaged and the report must name those tasks and history entries, no more.
 */
class StoreRepairTest {

  private static final Instant NOW = Instant.parse("2026-11-24T18:00:00Z");

  @TempDir Path dir;

  /**
   * Record 1 registers machine order, records 2 to 11 create t-00 to t-09 one by one, then 12
   * pauses t-03, 13 resumes it, 14 pauses t-05 and 15 pauses t-04.
   */
  static void fill(EmbeddedStore s) {
    String version = s.register("order", "machine: order\n", T0).version();
    for (int i = 0; i < 10; i++) {
      s.create(List.of(task(i, version)));
    }
    command(s, "t-03", Command.PAUSE);
    command(s, "t-03", Command.RUN);
    command(s, "t-05", Command.PAUSE);
    command(s, "t-04", Command.PAUSE);
  }

  private static Task task(int n, String version) {
    Task t = Workload.task(String.format("t-%02d", n));
    return new Task(t.id(), t.machine(), version, t.state(), t.status(), t.context(),
        t.attempt(), t.errors(), t.created(), t.stateEntered(), t.lastAttempt(), t.due(), null);
  }

  private static void command(EmbeddedStore s, String id, Command c) {
    s.update(id, t -> Commands.apply(t, c, new Commands.Request(null, "", "ann"),
        T0.plusSeconds(5)));
  }

  @Test
  void aFlippedByteUnderACleanIndexIsRefusedThenRepairedWithNothingLost() throws IOException {
    Path store = dir.resolve("store");
    Map<String, List<Transition>> before;
    try (EmbeddedStore s = EmbeddedStore.open(store)) {
      fill(s);
      before = read(s);
    }
    Path segment = Workload.lastSegment(store);
    long frame = frames(segment).get(4L);
    flip(segment, frame + 16 + 10);  // "order" in t-02's creation becomes "osder"
    Map<Path, String> files = contents(store);

    assertThatThrownBy(() -> EmbeddedStore.open(store))
        .isInstanceOf(JournalDamagedException.class)
        .hasMessageStartingWith("journal segment " + segment + " is damaged at byte " + frame
            + " (CRC mismatch), and a sound later record, 5, follows at byte "
            + frames(segment).get(5L));
    assertThat(contents(store)).as("a refused open changes nothing")
        .containsExactlyInAnyOrderEntriesOf(files);

    RepairReport r = StoreRepair.run(store, EmbeddedStoreOptions.defaults(), NOW);
    assertThat(r.damage()).hasSize(1);
    assertThat(r.damage().get(0).file()).isEqualTo(segment);
    assertThat(r.damage().get(0).offset()).isEqualTo(frame);
    assertThat(r.damage().get(0).readAs()).contains("the creation of task t-02");
    assertThat(r.lostRecords()).isEmpty();
    assertThat(r.fromCleanIndex()).containsExactly("t-02");
    assertThat(r.lostTasks()).isEmpty();
    assertThat(r.tasksKept()).isEqualTo(10);
    Path aside = store.resolve("damaged-20261124T180000Z");
    assertThat(r.damagedFolder()).contains(aside);
    assertThat(r.lines()).containsSubsequence(
        "kept: 10 tasks up to journal record 15, built on the clean index (closed at journal"
            + " record 15)",
        "recovered from the clean index: t-02",
        "could not recover: nothing",
        "damaged originals kept in " + aside);
    assertThat(aside.resolve("journal").resolve(segment.getFileName())).exists();
    assertThat(aside.resolve("index.db")).exists();
    assertThat(aside.resolve("repair-report.txt")).hasContent(String.join("\n", r.lines()));

    try (EmbeddedStore s = EmbeddedStore.open(store)) {
      assertThat(read(s)).isEqualTo(before);
    }
    RepairReport again = StoreRepair.run(store, EmbeddedStoreOptions.defaults(), NOW);
    assertThat(again.sound()).isTrue();
    assertThat(again.lines()).containsExactly("store " + store + ": no damage found; nothing"
        + " changed");
  }

  @Test
  void withoutACleanIndexTheReportNamesExactlyTheDamagedTasksAndEntries() throws IOException {
    Path store = dir.resolve("store");
    Path crashed = dir.resolve("crashed");
    try (EmbeddedStore s = EmbeddedStore.open(store)) {
      fill(s);
      Workload.copyFolder(store, crashed);
    }
    Path segment = Workload.lastSegment(crashed);
    Map<Long, Long> frames = frames(segment);
    flip(segment, frames.get(4L) + 5);        // the CRC of t-02's creation, its only record
    flip(segment, frames.get(6L) + 16 + 10);  // t-04's creation; record 15 pauses it later
    flip(segment, frames.get(12L) + 5);       // t-03's first history entry

    RepairReport r = StoreRepair.run(crashed, EmbeddedStoreOptions.defaults(), NOW);
    assertThat(r.lostRecords()).containsExactly(new Range(4, 4), new Range(6, 6),
        new Range(12, 12));
    assertThat(r.lostTasks()).containsExactly(
        new LostTask("t-02", true, false, List.of(), 0),
        new LostTask("t-03", false, false, List.of(1), 2),
        new LostTask("t-04", false, true, List.of(), 1));
    assertThat(r.fromCleanIndex()).isEmpty();
    assertThat(r.lines()).containsSubsequence("could not recover:",
        "  task t-02: everything (only damaged bytes name it)",
        "  task t-03: history entry 1 (of 2)",
        "  task t-04: its creation (its state comes from a later record)",
        "  anything else journal record 4, record 6, record 12 held: the lines above are what"
            + " surviving records and damaged bytes show of them");

    try (EmbeddedStore s = EmbeddedStore.open(crashed)) {
      assertThat(s.get("t-02")).isEmpty();
      assertThat(s.list(TaskQuery.all(100))).hasSize(9);
      assertThat(s.history("t-03")).extracting(Transition::event).containsExactly("run");
      assertThat(s.get("t-04").orElseThrow().status().word()).isEqualTo("paused");
    }
    assertThat(StoreRepair.run(crashed, EmbeddedStoreOptions.defaults(), NOW).sound()).isTrue();
  }

  @Test
  void damageInsideATaskIdNamesNoTaskFromTheDamagedBytes() throws IOException {
    Path store = dir.resolve("store");
    try (EmbeddedStore s = EmbeddedStore.open(store)) {
      fill(s);
    }
    Files.delete(store.resolve(CleanMarker.FILE));
    Path segment = Workload.lastSegment(store);
    long frame = frames(segment).get(12L);  // t-03's first history entry
    byte[] bytes = Files.readAllBytes(segment);
    int id = indexOf(bytes, "t-03".getBytes(java.nio.charset.StandardCharsets.US_ASCII),
        (int) frame);
    try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
      f.seek(id + 1);
      f.write(new byte[] {(byte) 0xFF, (byte) 0xFE});
    }

    RepairReport r = StoreRepair.run(store, EmbeddedStoreOptions.defaults(), NOW);
    assertThat(r.lostRecords()).containsExactly(new Range(12, 12));
    assertThat(r.lostTasks()).extracting(LostTask::id).allMatch(i -> i.matches("t-0\\d"));
    assertThat(String.join("\n", r.lines())).doesNotContain("\uFFFD");
    assertThat(r.damage()).singleElement().satisfies(d -> assertThat(d.readAs()).isEmpty());
  }

  private static int indexOf(byte[] in, byte[] what, int from) {
    for (int i = from; i <= in.length - what.length; i++) {
      if (java.util.Arrays.equals(in, i, i + what.length, what, 0, what.length)) {
        return i;
      }
    }
    throw new AssertionError("not found");
  }

  @Test
  void aDamagedSnapshotLosesOnlyTheTasksItsBadRecordsHeld() throws IOException {
    Path store = dir.resolve("store");
    Path crashed = dir.resolve("crashed");
    try (EmbeddedStore s = EmbeddedStore.open(store)) {
      String version = s.register("order", "machine: order\n", T0).version();
      for (int i = 0; i < 10; i++) {
        s.create(List.of(task(i, version)));
      }
      command(s, "t-06", Command.PAUSE);
      s.checkpoint();
      command(s, "t-06", Command.RUN);
      Workload.copyFolder(store, crashed);
    }
    Path snapshot = crashed.resolve(SnapshotFile.NAME);
    Map<String, Long> records = snapshotRecords(snapshot);
    flip(snapshot, records.get("t-06") + 4);
    flip(snapshot, records.get("t-08") + 4);

    assertThatThrownBy(() -> EmbeddedStore.open(crashed)).isInstanceOf(FsmException.class)
        .hasMessageContaining("snapshot " + snapshot + " has a damaged record 8 at byte "
            + records.get("t-06") + " (CRC mismatch)")
        .hasMessageContaining("fsm store repair");

    RepairReport r = StoreRepair.run(crashed, EmbeddedStoreOptions.defaults(), NOW);
    assertThat(r.damage()).extracting(RepairReport.Damaged::offset)
        .containsExactly(records.get("t-06"), records.get("t-08"));
    assertThat(r.lostRecords()).isEmpty();
    assertThat(r.lostTasks()).containsExactly(
        new LostTask("t-06", false, true, List.of(1), 2),
        new LostTask("t-08", true, false, List.of(), 0));
    try (EmbeddedStore s = EmbeddedStore.open(crashed)) {
      assertThat(s.list(TaskQuery.all(100))).extracting(Task::id).hasSize(9)
          .doesNotContain("t-08");
      assertThat(s.history("t-06")).extracting(Transition::event).containsExactly("run");
    }
  }

  @Test
  void aDamagedSnapshotRecordWhoseIdIsUnreadableIsReportedLostNotNothing() throws IOException {
    Path store = dir.resolve("store");
    Path crashed = dir.resolve("crashed");
    try (EmbeddedStore s = EmbeddedStore.open(store)) {
      String version = s.register("order", "machine: order\n", T0).version();
      for (int i = 0; i < 10; i++) {
        s.create(List.of(task(i, version)));
      }
      s.checkpoint();
      Workload.copyFolder(store, crashed);
    }
    Path snapshot = crashed.resolve(SnapshotFile.NAME);
    Map<String, Long> records = snapshotRecords(snapshot);
    // Every byte of t-08's record, its id too: nothing left says which task it was.
    for (long at = records.get("t-08"); at < records.get("t-09"); at++) {
      flip(snapshot, at);
    }

    RepairReport r = StoreRepair.run(crashed, EmbeddedStoreOptions.defaults(), NOW);
    assertThat(r.lostTasks()).isEmpty();
    assertThat(r.nothingLost()).isFalse();
    assertThat(r.lines()).contains("could not recover: the tasks the damaged snapshot bytes"
        + " held, unless a later journal record changed them; no surviving byte shows which"
        + " tasks they were").doesNotContain("could not recover: nothing");
    try (EmbeddedStore s = EmbeddedStore.open(crashed)) {
      assertThat(s.list(TaskQuery.all(100))).extracting(Task::id).hasSize(9)
          .doesNotContain("t-08");
    }
  }

  @Test
  void aJournalCutBelowACleanCloseIsRefusedAndTheCleanIndexFillsTheGap() throws IOException {
    Path store = dir.resolve("store");
    Map<String, List<Transition>> before;
    try (EmbeddedStore s = EmbeddedStore.open(store)) {
      fill(s);
      before = read(s);
    }
    Path segment = Workload.lastSegment(store);
    long last = frames(segment).get(15L);
    try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
      f.setLength(last);
    }
    assertThatThrownBy(() -> EmbeddedStore.open(store))
        .isInstanceOf(JournalDamagedException.class)
        .hasMessageStartingWith("journal segment " + segment + " ends at byte " + last
            + " after record 14, but the store was closed cleanly at record 15: records 15 to 15"
            + " were acknowledged and are not there, so fsm opened nothing and changed nothing.");
    assertThat(Files.size(segment)).isEqualTo(last);
    assertThat(store.resolve(CleanMarker.FILE)).exists();

    RepairReport r = StoreRepair.run(store, EmbeddedStoreOptions.defaults(), NOW);
    assertThat(r.damage()).isEmpty();
    assertThat(r.missingRecords()).containsExactly(new Range(15, 15));
    assertThat(r.lostRecords()).isEmpty();
    assertThat(r.fromCleanIndex()).containsExactly("t-04");
    assertThat(r.lines().subList(0, 2)).containsExactly(
        "store " + store + ": journal records missing",
        "  missing: journal record 15 (the clean index holds what it did)");
    assertThat(r.nothingLost()).isTrue();
    try (EmbeddedStore s = EmbeddedStore.open(store)) {
      assertThat(read(s)).isEqualTo(before);
    }
  }

  @Test
  void aLostJournalFolderIsRepairedFromTheCleanIndexThroughTheStoreKind() throws IOException {
    Path store = dir.resolve("store");
    Map<String, List<Transition>> before;
    try (EmbeddedStore s = EmbeddedStore.open(store)) {
      fill(s);
      before = read(s);
    }
    try (var files = Files.walk(store.resolve(Journal.FOLDER))) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
    RepairReport r = EmbeddedStoreKind.INSTANCE.repair(
        new StoreLocation.Folder(store), EmbeddedStoreOptions.defaults(), NOW);
    assertThat(r.lostRecords()).isEmpty();
    assertThat(r.nothingLost()).isTrue();
    try (EmbeddedStore s = EmbeddedStore.open(store)) {
      assertThat(read(s)).isEqualTo(before);
    }
  }

  @Test
  void aJournalOfAnotherFormatIsNotRepairedButLeftAsItWas() throws IOException {
    Path store = dir.resolve("store");
    try (EmbeddedStore s = EmbeddedStore.open(store)) {
      fill(s);
    }
    Path segment = Workload.lastSegment(store);
    try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
      f.seek(4);
      f.write(9);
    }
    Map<Path, String> files = contents(store);
    assertThatThrownBy(() -> StoreRepair.run(store, EmbeddedStoreOptions.defaults(), NOW))
        .isInstanceOf(FsmException.class)
        .hasMessage(segment + " is in journal format 9, but this fsm reads format 1: another fsm"
            + " version wrote it, so this one will not repair the store. Use the fsm version"
            + " that wrote it.");
    assertThat(contents(store)).isEqualTo(files);
  }

  @Test
  void entryNumbersAreWrittenAsRuns() {
    assertThat(RepairReport.numbers(List.of(3))).isEqualTo("3");
    assertThat(RepairReport.numbers(List.of(3, 5))).isEqualTo("3 and 5");
    assertThat(RepairReport.numbers(List.of(3, 4, 5))).isEqualTo("3 to 5");
    assertThat(RepairReport.numbers(List.of(1, 3, 4, 5, 8))).isEqualTo("1, 3 to 5 and 8");
  }

  @Test
  void aRepairKilledAfterItsCommitIsFinishedByTheNextAndRefusedByOpen() throws IOException {
    Path store = dir.resolve("store");
    Map<String, List<Transition>> before;
    try (EmbeddedStore s = EmbeddedStore.open(store)) {
      fill(s);
      before = read(s);
    }
    Path segment = Workload.lastSegment(store);
    flip(segment, frames(segment).get(8L) + 16 + 10);
    RepairReport first = StoreRepair.run(store, EmbeddedStoreOptions.defaults(), NOW);
    Path aside = first.damagedFolder().orElseThrow();
    // Back to the moment after the commit, before the swap: as a kill there leaves it.
    Files.move(store.resolve("snapshot"), aside.resolve(RepairFolders.NEW_SNAPSHOT));
    RepairFolders.deleteTree(store.resolve("journal"));
    Files.move(aside.resolve("journal"), store.resolve("journal"));
    JournalSalvage.createEmpty(aside.resolve(RepairFolders.NEW_JOURNAL), first.lastRecord() + 1);

    assertThatThrownBy(() -> EmbeddedStore.open(store)).isInstanceOf(FsmException.class)
        .hasMessage("store " + store + " is in the middle of a repair that was interrupted ("
            + aside.getFileName() + " holds its result); run `fsm store repair` to finish it"
            + " before using the store");
    RepairReport resumed = StoreRepair.run(store, EmbeddedStoreOptions.defaults(), NOW);
    assertThat(resumed.lines().get(0)).isEqualTo("store " + store + ": finished a repair that"
        + " was interrupted; its report, as saved in " + aside.resolve("repair-report.txt")
        + ":");
    assertThat(resumed.resumed()).isEqualTo(first.lines());
    try (EmbeddedStore s = EmbeddedStore.open(store)) {
      assertThat(read(s)).isEqualTo(before);
    }
  }

  /** Every task's id and history, in id order. */
  private static Map<String, List<Transition>> read(EmbeddedStore s) {
    Map<String, List<Transition>> all = new LinkedHashMap<>();
    for (Task t : s.list(TaskQuery.all(1000))) {
      all.put(t.id() + " " + t.status().word(), s.history(t.id()));
    }
    return all;
  }

  /** Each record's frame offset in a sound segment, by sequence. */
  static Map<Long, Long> frames(Path segment) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(segment));
    Map<Long, Long> offsets = new TreeMap<>();
    for (int at = 13; at < b.limit(); at += 16 + b.getInt(at)) {
      offsets.put(b.getLong(at + 8), (long) at);
    }
    return offsets;
  }

  /** Each task's record offset in a sound snapshot, by id. */
  private static Map<String, Long> snapshotRecords(Path snapshot) throws IOException {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(snapshot));
    Map<String, Long> offsets = new TreeMap<>();
    for (int at = 25; at < b.limit() - 8; at += 8 + b.getInt(at)) {
      byte[] payload = new byte[b.getInt(at)];
      b.get(at + 8, payload);
      if (StoreEventCodec.decode(payload) instanceof StoreEvent.Restored r) {
        offsets.put(r.task().id(), (long) at);
      }
    }
    return offsets;
  }

  static void flip(Path file, long offset) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(offset);
      int b = f.read();
      f.seek(offset);
      f.write(b ^ 0x01);
    }
  }

  private static Map<Path, String> contents(Path folder) throws IOException {
    Map<Path, String> all = new TreeMap<>();
    try (Stream<Path> files = Files.walk(folder)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        if (!f.getFileName().toString().equals("owner.lock")) {
          all.put(f, java.util.Base64.getEncoder().encodeToString(Files.readAllBytes(f)));
        }
      }
    }
    return all;
  }
}

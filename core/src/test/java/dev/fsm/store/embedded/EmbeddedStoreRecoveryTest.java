package dev.fsm.store.embedded;

import static dev.fsm.store.embedded.Workload.FAR;
import static dev.fsm.store.embedded.Workload.LEASE;
import static dev.fsm.store.embedded.Workload.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.fsm.FsmException;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.embedded.Workload.Seen;
import dev.fsm.store.embedded.index.IndexFile;
import dev.fsm.store.embedded.index.IndexMeta;
import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.store.embedded.journal.JournalFaults;
import dev.fsm.store.embedded.owner.StoreInUseException;
import dev.fsm.store.embedded.recovery.CleanMarker;
import dev.fsm.store.embedded.recovery.OpenReport;
import dev.fsm.task.Change;
import dev.fsm.task.Command;
import dev.fsm.task.Commands;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mapdb.DB;
import org.mapdb.Serializer;

/**
 * After a clean close the index is used as is; after anything else it is rebuilt from the journal
 * with every acknowledged change, the user is told why, and leases never survive a reopen.
 */
class EmbeddedStoreRecoveryTest {

  private static final Duration NO_HANG = Duration.ofSeconds(20);

  @TempDir Path dir;

  @Test
  void aCleanCloseIsUsedAsIsAndEveryLeaseIsDropped() {
    Path folder = dir.resolve("store");
    Seen before;
    long last;
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      assertThat(store.openReport().why()).isEqualTo("created for a new store");
      Workload.run(store);
      before = Workload.read(store);
      last = lastRecord(store);
    }
    long leased = before.tasks().stream().filter(t -> t.lease() != null).count();
    assertThat(leased).as("the workload leaves leases, some expired").isEqualTo(10);

    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      OpenReport report = store.openReport();
      assertThat(report.rebuilt()).isFalse();
      assertThat(report.why())
          .isEqualTo("used as left at a clean close at journal record " + last);
      assertThat(report.summary()).matches("index: used as left at a clean close at journal"
          + " record " + last + " \\(\\d+ ms\\)");
      Seen after = Workload.read(store);
      assertThat(after).isEqualTo(Workload.withoutLeases(before));

      List<String> heldBefore = before.tasks().stream()
          .filter(t -> t.lease() != null && t.claimableAt(FAR)).map(Task::id).toList();
      List<Task> claimed = store.claim("new-runner", 100, T0.plusSeconds(90), LEASE);
      assertThat(claimed).extracting(Task::id).as("claimable at once, not when leases end")
          .containsAll(heldBefore);
    }
  }

  @Test
  void anUncleanStopRebuildsTheIndexWithEveryAcknowledgedChange() {
    Path folder = dir.resolve("store");
    Path crashed = dir.resolve("crashed");
    Seen before;
    long last;
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      Workload.run(store);
      before = Workload.read(store);
      last = lastRecord(store);
      Workload.copyFolder(folder, crashed);
    }

    try (EmbeddedStore store = EmbeddedStore.open(crashed)) {
      OpenReport report = store.openReport();
      assertThat(report.rebuilt()).isTrue();
      assertThat(report.why()).isEqualTo("the store was not closed cleanly");
      assertThat(report.recordsReplayed()).isEqualTo(last);
      assertThat(report.journalRecovery()).isEmpty();
      assertThat(report.summary()).matches("index: rebuilt from the journal because the store"
          + " was not closed cleanly: " + last + " records replayed in \\d+ ms");
      assertThat(Workload.read(store)).isEqualTo(Workload.withoutLeases(before));
    }
    try (EmbeddedStore store = EmbeddedStore.open(crashed)) {
      assertThat(store.openReport().rebuilt()).as("closed cleanly since").isFalse();
      assertThat(Workload.read(store)).isEqualTo(Workload.withoutLeases(before));
    }
  }

  @Test
  void theIndexEqualsARebuildFromTheJournal() {
    Path folder = dir.resolve("store");
    Path rebuilt = dir.resolve("rebuilt");
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      Workload.run(store);
    }
    Workload.copyFolder(folder, rebuilt);
    deleteMarker(rebuilt);

    try (EmbeddedStore kept = EmbeddedStore.open(folder);
        EmbeddedStore replayed = EmbeddedStore.open(rebuilt)) {
      assertThat(kept.openReport().rebuilt()).isFalse();
      assertThat(replayed.openReport().rebuilt()).isTrue();
      assertThat(Workload.read(replayed)).isEqualTo(Workload.read(kept));
      assertThat(replayed.claim("z", 100, FAR, LEASE))
          .as("the same due queue").isEqualTo(kept.claim("z", 100, FAR, LEASE));
      assertThat(replayed.claim("z", 100, FAR, LEASE)).isEmpty();
      assertThat(kept.claim("z", 100, FAR, LEASE)).isEmpty();
    }
  }

  @Test
  void sortSpillsLeftByARebuildKilledMidwayAreDeletedAtTheNextOpen() throws IOException {
    Path folder = dir.resolve("store");
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      Workload.run(store);
    }
    List<Path> left = List.of(folder.resolve("index.db.tasks.spill"),
        folder.resolve("index.db.due.spill"), folder.resolve("index.check.db.history.spill"));
    for (Path spill : left) {
      Files.write(spill, new byte[4096]);
    }
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      assertThat(store.openReport().rebuilt()).isFalse();
    }
    assertThat(left).noneMatch(Files::exists);
    assertThat(folder.resolve(TaskIndex.FILE)).exists();
  }

  @Test
  void aMissingMarkerOrOneNamingAnotherRecordRebuilds() throws IOException {
    Path folder = dir.resolve("store");
    long last;
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      Workload.run(store);
      last = lastRecord(store);
    }
    deleteMarker(folder);
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      assertThat(store.openReport().rebuilt()).isTrue();
      assertThat(store.openReport().why()).isEqualTo("the store was not closed cleanly");
    }
    Files.writeString(folder.resolve(CleanMarker.FILE), "journal-record=3\n");
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      assertThat(store.openReport().rebuilt()).isTrue();
      assertThat(store.openReport().why())
          .isEqualTo("index.clean names journal record 3 but the journal ends at record " + last);
    }
    Files.writeString(folder.resolve(CleanMarker.FILE), "garbage");
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      assertThat(store.openReport().why()).isEqualTo("the store was not closed cleanly");
    }
    Files.delete(folder.resolve(TaskIndex.FILE));
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      assertThat(store.openReport().why()).isEqualTo("index.db is missing");
      assertThat(store.list(TaskQuery.all(100))).hasSize(60);
    }
  }

  @Test
  void aDamagedIndexWithACleanMarkerIsRebuiltRatherThanHangingOrFailing() throws IOException {
    Path folder = dir.resolve("store");
    Seen before;
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      Workload.run(store);
      before = Workload.withoutLeases(Workload.read(store));
    }
    Path index = folder.resolve(TaskIndex.FILE);
    long size = Files.size(index);
    byte[] garbage = new byte[(int) size];
    new Random(42).nextBytes(garbage);
    Files.write(index, garbage);
    assertRebuiltFrom(folder, "index.db is damaged (", before);

    truncate(index, Files.size(index) / 2);
    assertRebuiltFrom(folder, "index.db is damaged (", before);

    // A sound index of another store, or of this store at another time.
    Path other = dir.resolve("other");
    try (EmbeddedStore store = EmbeddedStore.open(other)) {
      Workload.run(store);
      store.update("w-00", t -> Commands.apply(t, Command.KILL,
          new Commands.Request(null, "", "ann"), T0));
    }
    Files.copy(other.resolve(TaskIndex.FILE), index,
        StandardCopyOption.REPLACE_EXISTING);
    assertRebuiltFrom(folder, "index.db is damaged (DataCorruption: it was closed at journal"
        + " record", before);
  }

  @Test
  void anIndexOfAnotherFormatIsRebuilt() throws IOException {
    Path folder = dir.resolve("store");
    Seen before;
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      Workload.run(store);
      before = Workload.withoutLeases(Workload.read(store));
    }
    DB db = IndexFile.open(folder.resolve(TaskIndex.FILE)).db();
    try {
      db.treeMap("meta", Serializer.STRING, Serializer.LONG).open()
          .put("format", IndexMeta.FORMAT - 1);
    } finally {
      db.close();
    }
    assertRebuiltFrom(folder, "index.db is in index format " + (IndexMeta.FORMAT - 1) + ", not "
        + IndexMeta.FORMAT, before);
  }

  @Test
  void anIndexThatDoesNotOpenInTimeIsRebuilt() {
    Path folder = dir.resolve("store");
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      Workload.run(store);
    }
    // 1 ns, not 1 ms: a small index may well open and pass its check within a millisecond.
    EmbeddedStoreOptions impatient =
        EmbeddedStoreOptions.defaults().indexOpenTimeout(Duration.ofNanos(1));
    try (EmbeddedStore store = assertTimeoutPreemptively(NO_HANG,
        () -> EmbeddedStore.open(folder, impatient))) {
      assertThat(store.openReport().rebuilt()).isTrue();
      assertThat(store.openReport().why()).isEqualTo("index.db did not open within 0 ms");
      assertThat(store.get("w-00")).isPresent();
    }
  }

  @Test
  void aTornJournalTailLosesOnlyTheChangeThatWasNeverAcknowledged() throws IOException {
    Path folder = dir.resolve("store");
    Path crashed = dir.resolve("crashed");
    Task a = Workload.task("a");
    Task b = Workload.task("b");
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      store.create(List.of(a));
      store.create(List.of(b));
      Workload.copyFolder(folder, crashed);
    }
    // As if the crash came while "b" was being written: its record is cut short.
    Path segment = Workload.lastSegment(crashed);
    truncate(segment, Files.size(segment) - 5);

    try (EmbeddedStore store = EmbeddedStore.open(crashed)) {
      OpenReport report = store.openReport();
      assertThat(store.get("a")).contains(a);
      assertThat(store.get("b")).isEmpty();
      assertThat(store.counts()).singleElement().extracting(c -> c.count()).isEqualTo(1L);
      assertThat(report.rebuilt()).isTrue();
      assertThat(report.recordsReplayed()).isEqualTo(1);
      assertThat(report.journalRecovery()).hasValueSatisfying(j -> assertThat(j)
          .startsWith("journal: cut " + segment.getFileName() + " at byte "));
      assertThat(report.summary()).contains("1 record replayed").contains("; journal: cut ");
      store.create(List.of(b));
    }
    try (EmbeddedStore store = EmbeddedStore.open(crashed)) {
      assertThat(store.openReport().rebuilt()).isFalse();
      assertThat(store.list(TaskQuery.all(10))).containsExactly(a, b);
    }
  }

  @Test
  void aFailedJournalWriteStopsTheStoreAndAReopenKeepsWhatWasAcknowledged() throws IOException {
    Path folder = dir.resolve("store");
    Task a = Workload.task("a");
    EmbeddedStore store = EmbeddedStore.open(folder);
    try {
      store.create(List.of(a));
      JournalFaults.failDisk(store.journal());

      assertThatThrownBy(() -> store.update("a", t -> Commands.apply(t, Command.PAUSE,
          new Commands.Request(null, "", "ann"), T0)))
          .isInstanceOf(FsmException.class)
          .hasMessageStartingWith("store " + folder + " could not write a change to disk, so it"
              + " may be lost: the journal in ");
      assertThatThrownBy(() -> store.get("a")).isInstanceOf(FsmException.class)
          .hasMessageStartingWith("store " + folder + " takes no more requests after an earlier"
              + " failure; close it and open it again");
    } finally {
      store.close();
    }
    assertThat(folder.resolve(CleanMarker.FILE)).doesNotExist();

    try (EmbeddedStore reopened = EmbeddedStore.open(folder)) {
      assertThat(reopened.openReport().rebuilt()).isTrue();
      assertThat(reopened.get("a")).contains(a);
    }
  }

  @Test
  void anIndexFailingBehindAnAcknowledgedOutcomeStopsTheStoreAndAReopenRebuildsIt() {
    Path folder = dir.resolve("store");
    Task a = Workload.task("a");
    Change done;
    EmbeddedStore store = EmbeddedStore.open(folder);
    try {
      store.create(List.of(a));
      Task claimed = store.claim("r1", 1, T0, LEASE).get(0);
      store.locked(() -> {
        store.index().close();
        return null;
      });
      Task next = new Task("a", claimed.machine(), claimed.version(), "shipped",
          TaskStatus.RUNNABLE, claimed.context(), 0, List.of(), claimed.created(), T0, T0, T0,
          null);
      done = new Change(next, new Transition(T0, claimed.state(), "ok", "shipped", 5, 1, "r1",
          ""));
      store.record("r1", done);

      assertThatThrownBy(() -> store.get("a")).isInstanceOf(FsmException.class);
      assertThatThrownBy(() -> store.get("a")).isInstanceOf(FsmException.class)
          .hasMessageStartingWith("store " + folder + " takes no more requests after an earlier"
              + " failure; close it and open it again")
          .hasMessageContaining("the index of store " + folder + " failed");
    } finally {
      store.close();
    }
    assertThat(folder.resolve(CleanMarker.FILE)).doesNotExist();

    try (EmbeddedStore reopened = EmbeddedStore.open(folder)) {
      assertThat(reopened.openReport().rebuilt()).isTrue();
      assertThat(reopened.get("a")).contains(done.next());
      assertThat(reopened.history("a")).containsExactly(done.entry());
    }
  }

  @Test
  void aFolderIsOpenedByOneStoreAtATime() {
    Path folder = dir.resolve("store");
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      store.create(List.of(Workload.task("a")));
      assertThatThrownBy(() -> EmbeddedStore.open(folder))
          .isInstanceOf(StoreInUseException.class)
          .hasMessage("store " + folder + " is already open in this process");
      assertThat(store.get("a")).isPresent();
    }
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      assertThat(store.openReport().rebuilt()).isFalse();
      assertThat(store.get("a")).isPresent();
    }
  }

  private static void assertRebuiltFrom(Path folder, String why, Seen expected)
      throws IOException {
    long last;
    try (EmbeddedStore store = assertTimeoutPreemptively(NO_HANG,
        () -> EmbeddedStore.open(folder))) {
      assertThat(store.openReport().rebuilt()).isTrue();
      assertThat(store.openReport().why()).startsWith(why);
      assertThat(Workload.read(store)).isEqualTo(expected);
      last = lastRecord(store);
    }
    assertThat(Files.readString(folder.resolve(CleanMarker.FILE), StandardCharsets.UTF_8))
        .startsWith("journal-record=" + last + "\njournal-segment=");
    assertThat(CleanMarker.read(folder).orElseThrow().seal()).isPresent();
  }

  private static void deleteMarker(Path folder) {
    try {
      Files.delete(folder.resolve(CleanMarker.FILE));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void truncate(Path file, long size) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(size);
    }
  }

  /** The journal's last record once everything appended is written: leases are appended lazily. */
  private static long lastRecord(EmbeddedStore store) {
    store.awaitDurable();
    return store.journal().lastSequence();
  }
}

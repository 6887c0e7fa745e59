package dev.fsm.store.embedded;

import static dev.fsm.store.embedded.Workload.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.fsm.store.Store;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.embedded.Workload.Seen;
import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.store.embedded.journal.Journal;
import dev.fsm.store.embedded.journal.JournalDamagedException;
import dev.fsm.store.embedded.journal.JournalOptions;
import dev.fsm.store.embedded.owner.StoreInUseException;
import dev.fsm.store.embedded.recovery.CleanMarker;
import dev.fsm.task.Command;
import dev.fsm.task.Commands;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A read-only open reads a cleanly closed store without writing a byte, and hands every store
 * that opening would change (or that today's checks reject) to the writing open, so a damaged
 * index is never read.
 */
class EmbeddedReaderTest {

  private static final Duration NO_HANG = Duration.ofSeconds(20);

  @TempDir Path dir;

  @Test
  void aCleanStoreIsReadAsTheWritingOpenReadsItWithoutChangingAByte() throws IOException {
    Path folder = dir.resolve("store");
    Seen before = closedWithWorkload(folder);
    Map<String, String> files = contents(folder);

    try (Store store = EmbeddedReader.open(folder, EmbeddedStoreOptions.defaults())) {
      assertThat(store).isInstanceOf(EmbeddedReader.class);
      assertThat(Workload.read(store)).isEqualTo(before);
      assertThat(store.history("w-00")).isEqualTo(before.histories().get("w-00"));
      assertThatThrownBy(() -> store.update("w-00", t -> Commands.apply(t, Command.KILL,
          new Commands.Request(null, "", "ann"), T0)))
          .isInstanceOf(UnsupportedOperationException.class)
          .hasMessageContaining("opened to read only");
    }
    assertThat(contents(folder)).isEqualTo(files);
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      assertThat(store.openReport().rebuilt()).as("the marker still vouches for the index")
          .isFalse();
    }
  }

  @Test
  void idsAndHistoriesReadAsTheWritingOpenReadsThem() {
    Path folder = dir.resolve("store");
    closedWithWorkload(folder);
    List<TaskQuery> queries = List.of(
        new TaskQuery(Optional.of("order"), Optional.empty(), Optional.empty(), Optional.empty(),
            100, TaskQuery.Order.DESCENDING),
        new TaskQuery(Optional.of("refund"), Optional.empty(), Optional.of(TaskStatus.RUNNABLE),
            Optional.of("w-30"), 5, TaskQuery.Order.ASCENDING),
        TaskQuery.all(100));
    Map<TaskQuery, List<String>> listed = new HashMap<>();
    List<String> all;
    Map<String, List<Transition>> histories;
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      queries.forEach(q -> listed.put(q, store.list(q).stream().map(Task::id).toList()));
      all = listed.get(TaskQuery.all(100));
      histories = store.histories(all);
    }
    try (Store store = EmbeddedReader.open(folder, EmbeddedStoreOptions.defaults())) {
      assertThat(store).isInstanceOf(EmbeddedReader.class);
      for (TaskQuery q : queries) {
        assertThat(store.ids(q)).as(q.toString()).isEqualTo(listed.get(q)).isNotEmpty();
      }
      assertThat(store.histories(all)).isEqualTo(histories);
      assertThat(store.histories(List.of("no-such-task"))).containsEntry("no-such-task",
          List.of());
    }
  }

  @Test
  void aStoreHeldByAnotherOpenIsRefusedAsBefore() {
    Path folder = dir.resolve("store");
    closedWithWorkload(folder);
    try (EmbeddedStore held = EmbeddedStore.open(folder)) {
      assertThatThrownBy(() -> EmbeddedReader.open(folder, EmbeddedStoreOptions.defaults()))
          .isInstanceOf(StoreInUseException.class);
    }
    try (Store again = EmbeddedReader.open(folder, EmbeddedStoreOptions.defaults())) {
      assertThatThrownBy(() -> EmbeddedReader.open(folder, EmbeddedStoreOptions.defaults()))
          .as("the reader holds the folder as any owner does")
          .isInstanceOf(StoreInUseException.class);
    }
  }

  @Test
  void anUncleanStoreIsRebuiltByTheWritingOpen() throws IOException {
    Path folder = dir.resolve("store");
    Seen before = closedWithWorkload(folder);
    Files.delete(folder.resolve(CleanMarker.FILE));
    assertRebuilt(folder, "the store was not closed cleanly", before);

    Files.writeString(folder.resolve(CleanMarker.FILE), "journal-record=3\n");
    assertRebuilt(folder, "index.clean names journal record 3", before);

    Files.delete(folder.resolve(TaskIndex.FILE));
    assertRebuilt(folder, "index.db is missing", before);
  }

  @Test
  void aDamagedIndexIsRebuiltBeforeAnythingIsReadFromIt() throws IOException {
    Path folder = dir.resolve("store");
    Seen before = closedWithWorkload(folder);
    Path index = folder.resolve(TaskIndex.FILE);
    byte[] garbage = new byte[(int) Files.size(index)];
    new Random(7).nextBytes(garbage);
    Files.write(index, garbage);
    assertRebuilt(folder, "index.db is damaged (", before);

    // A sound index, but of this store at another time: it must not be trusted either.
    Path other = dir.resolve("other");
    try (EmbeddedStore store = EmbeddedStore.open(other)) {
      Workload.run(store);
      store.update("w-00", t -> Commands.apply(t, Command.KILL,
          new Commands.Request(null, "", "ann"), T0));
    }
    Files.copy(other.resolve(TaskIndex.FILE), index, StandardCopyOption.REPLACE_EXISTING);
    assertRebuilt(folder, "index.db is damaged (DataCorruption: it was closed at journal"
        + " record", before);

    EmbeddedStoreOptions impatient =
        EmbeddedStoreOptions.defaults().indexOpenTimeout(Duration.ofNanos(1));
    try (Store store = assertTimeoutPreemptively(NO_HANG,
        () -> EmbeddedReader.open(folder, impatient))) {
      assertThat(store).isInstanceOf(EmbeddedStore.class);
      assertThat(((EmbeddedStore) store).openReport().why())
          .isEqualTo("index.db did not open within 0 ms");
      assertThat(Workload.read(store)).isEqualTo(before);
    }
  }

  @Test
  void damageTheOpensCheckMissedIsRefusedByTheReadSayingToRebuild() throws IOException {
    Path made = dir.resolve("made");
    try (EmbeddedStore store = EmbeddedStore.open(made)) {
      store.register("m", "name: m\n", T0);
      List<Task> tasks = new java.util.ArrayList<>();
      for (int i = 0; i < 3000; i++) {
        tasks.add(new Task(String.format("t%05d", i), "m", store.versions("m").get(0).version(),
            "a", TaskStatus.RUNNABLE, "{\"pad\":\"" + "x".repeat(400) + "\"}", 0, List.of(), T0,
            T0, null, T0, null, null));
      }
      store.create(tasks);
    }
    long size = Files.size(made.resolve(TaskIndex.FILE));
    int readerRefused = 0;
    for (int k = 0; k < 12; k++) {
      Path folder = dir.resolve("copy" + k);
      copy(made, folder);
      long at = size / 4 + k * (size * 3 / 4 / 12);
      for (int i = 0; i < 64; i++) {
        flip(folder.resolve(TaskIndex.FILE), at + i, 0x5a);
      }
      try (Store store = EmbeddedReader.open(folder, EmbeddedStoreOptions.defaults())) {
        if (!(store instanceof EmbeddedReader)) {
          continue;
        }
        try {
          store.list(TaskQuery.all(5000));
        } catch (RuntimeException e) {
          // Never MapDB's or a decoder's exception, which would read as a bug in fsm.
          assertThat(e).isExactlyInstanceOf(dev.fsm.FsmException.class)
              .hasMessageStartingWith("the index of store " + folder)
              .hasMessageContaining("`fsm store rebuild`");
          readerRefused++;
        }
      } catch (RuntimeException e) {
        // The open's own check found it: refused or rebuilt, as the tests above show.
      }
    }
    assertThat(readerRefused).as("damage the open's sampled check let through").isPositive();
  }

  @Test
  void aTornTailIsCutByTheWritingOpen() throws IOException {
    Path folder = dir.resolve("store");
    Seen before = closedWithWorkload(folder);
    Path segment = Workload.lastSegment(folder);
    try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
      f.seek(f.length());
      f.write(new byte[] {0, 0, 0, 9, 1, 2});
    }
    try (Store store = EmbeddedReader.open(folder, EmbeddedStoreOptions.defaults())) {
      assertThat(store).isInstanceOf(EmbeddedStore.class);
      assertThat(((EmbeddedStore) store).openReport().journalRecovery()).isPresent();
      assertThat(Workload.read(store)).isEqualTo(before);
    }
  }

  @Test
  void journalDamageIsRefusedWithTheWritingOpensMessageAndNothingChanged() throws IOException {
    Path folder = dir.resolve("store");
    closedWithWorkload(folder);
    Path segment = Workload.lastSegment(folder);
    flip(segment, Files.size(segment) / 2, 0x10);
    Map<String, String> files = contents(folder);
    Throwable written = catchOpen(() -> EmbeddedStore.open(folder));
    assertThat(written).isInstanceOf(JournalDamagedException.class);
    Throwable read =
        catchOpen(() -> EmbeddedReader.open(folder, EmbeddedStoreOptions.defaults()));
    assertThat(read).isInstanceOf(JournalDamagedException.class)
        .hasMessage(written.getMessage());
    assertThat(contents(folder)).isEqualTo(files);
  }

  @Test
  void damageInAnyJournalSegmentBreaksTheSealAndIsRefusedAsTheWritingOpenRefusesIt()
      throws IOException {
    Path folder = dir.resolve("store");
    EmbeddedStoreOptions small = EmbeddedStoreOptions.defaults()
        .journal(JournalOptions.defaults().segmentBytes(1024));
    try (EmbeddedStore store = EmbeddedStore.open(folder, small)) {
      Workload.run(store);
    }
    List<Path> segments;
    try (Stream<Path> files = Files.list(folder.resolve(Journal.FOLDER))) {
      segments = files.filter(f -> f.toString().endsWith(".log")).sorted().toList();
    }
    assertThat(segments).hasSizeGreaterThan(2);
    assertThat(CleanMarker.read(folder).orElseThrow().seal().orElseThrow().segments())
        .hasSameSizeAs(segments);
    Path first = segments.get(0);
    flip(first, Files.size(first) - 3, 0x40);
    Map<String, String> files = contents(folder);
    Throwable written = catchOpen(() -> EmbeddedStore.open(folder, small));
    assertThat(written).isInstanceOf(JournalDamagedException.class)
        .hasMessageContaining(first.getFileName().toString());
    Throwable read = catchOpen(() -> EmbeddedReader.open(folder, small));
    assertThat(read).isInstanceOf(JournalDamagedException.class)
        .hasMessage(written.getMessage());
    assertThat(contents(folder)).isEqualTo(files);
  }

  @Test
  void aMarkerWithoutASealFromAnEarlierVersionIsReadAfterEveryFrameIsChecked()
      throws IOException {
    Path folder = dir.resolve("store");
    Seen before = closedWithWorkload(folder);
    long sequence = CleanMarker.peek(folder).orElseThrow();
    for (String marker : List.of("journal-record=" + sequence + "\n",
        "journal-record=" + sequence + "\njournal-segment=garbage\n")) {
      Files.writeString(folder.resolve(CleanMarker.FILE), marker);
      assertThat(CleanMarker.read(folder).orElseThrow().seal()).isEmpty();
      try (Store store = EmbeddedReader.open(folder, EmbeddedStoreOptions.defaults())) {
        assertThat(store).isInstanceOf(EmbeddedReader.class);
        assertThat(Workload.read(store)).isEqualTo(before);
      }
    }
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      assertThat(store.openReport().rebuilt()).isFalse();
    }
    assertThat(CleanMarker.read(folder).orElseThrow().seal()).as("sealed again at close")
        .isPresent();
  }

  /** Damages one byte of a file, as a failing disk would. */
  private static void flip(Path file, long offset, int mask) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(offset);
      int b = f.read();
      f.seek(offset);
      f.write(b ^ mask);
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : files.toList()) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target);
        }
      }
    }
  }

  private static Throwable catchOpen(Supplier<Store> open) {
    try (Store opened = open.get()) {
      throw new AssertionError("opened a damaged store: " + opened);
    } catch (RuntimeException e) {
      return e;
    }
  }

  private static Seen closedWithWorkload(Path folder) {
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      Workload.run(store);
      return Workload.withoutLeases(Workload.read(store));
    }
  }

  private static void assertRebuilt(Path folder, String why, Seen expected) {
    try (Store store = assertTimeoutPreemptively(NO_HANG,
        () -> EmbeddedReader.open(folder, EmbeddedStoreOptions.defaults()))) {
      assertThat(store).isInstanceOf(EmbeddedStore.class);
      assertThat(((EmbeddedStore) store).openReport().rebuilt()).isTrue();
      assertThat(((EmbeddedStore) store).openReport().why()).startsWith(why);
      assertThat(Workload.read(store)).isEqualTo(expected);
    }
  }

  /** Every file under {@code folder} with its size, time and a digest of its bytes. */
  private static Map<String, String> contents(Path folder) throws IOException {
    Map<String, String> all = new TreeMap<>();
    try (Stream<Path> files = Files.walk(folder)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        String name = folder.relativize(f).toString();
        if (name.equals("owner.lock") || name.equals("owner.queue")) {
          continue;  // Who holds the folder, rewritten by every owner.
        }
        all.put(name, Files.size(f) + " " + Files.getLastModifiedTime(f) + " "
            + Arrays.hashCode(Files.readAllBytes(f)));
      }
    }
    return all;
  }
}

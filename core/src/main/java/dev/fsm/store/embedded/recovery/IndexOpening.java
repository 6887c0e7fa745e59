package dev.fsm.store.embedded.recovery;

import dev.fsm.FsmException;
import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.store.embedded.event.StoreEventCodec;
import dev.fsm.store.embedded.index.IndexFile;
import dev.fsm.store.embedded.index.IndexMeta;
import dev.fsm.store.embedded.index.JournalTail;
import dev.fsm.store.embedded.index.ReadAhead;
import dev.fsm.store.embedded.index.SnapshotLoad;
import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.store.embedded.journal.Journal;
import dev.fsm.store.embedded.journal.SnapshotFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.mapdb.DB;

/**
 * Opens an embedded store's index: the one left at a clean close when its marker names the
 * journal's last record and it opens and passes a cheap check in time, otherwise a new one
 * rebuilt by replaying the whole journal. Either way no task is leased: leases live on the heap
 * and end with their process, so a store opened by a new owner hands the tasks the last one held
 * back at once (SPEC section 4).
 */
public final class IndexOpening {

  private static final int PROGRESS_EVERY = 16_384;

  /** The index ready for use, and what was done to get it. */
  public record Opened(TaskIndex index, OpenReport report) {}

  /** Why the index left in the folder cannot be used. */
  private static final class Unusable extends Exception {

    Unusable(String why) {
      super(why);
    }
  }

  private IndexOpening() {}

  /** Uses the index left in {@code folder} or builds one; {@code forceRebuild} always builds. */
  public static Opened open(Path folder, Journal journal, Duration timeout, boolean forceRebuild,
      RebuildProgress progress) throws IOException {
    long started = System.nanoTime();
    deleteSpills(folder);
    Path file = folder.resolve(TaskIndex.FILE);
    long last = journal.lastSequence();
    OptionalLong closedAt = CleanMarker.take(folder);
    boolean fresh = closedAt.isEmpty() && last == 0 && !Files.exists(file);
    TaskIndex index = null;
    String why;
    if (fresh) {
      why = "created for a new store";
    } else if (forceRebuild) {
      why = "a rebuild was asked for";
    } else if (closedAt.isEmpty()) {
      why = "the store was not closed cleanly";
    } else if (closedAt.getAsLong() != last) {
      why = CleanMarker.FILE + " names journal record " + closedAt.getAsLong()
          + " but the journal ends at record " + last;
    } else if (!Files.exists(file)) {
      why = TaskIndex.FILE + " is missing";
    } else {
      try {
        index = openBounded(folder, file, last, timeout);
        why = "used as left at a clean close at journal record " + last;
      } catch (Unusable e) {
        why = e.getMessage();
      }
    }
    boolean rebuilt = index == null && !fresh;
    long replayed = 0;
    boolean fromSnapshot = false;
    if (index == null) {
      Files.deleteIfExists(file);
      if (rebuilt) {
        Rebuilt built = rebuild(folder, journal, file, progress);
        index = built.index();
        replayed = built.records();
        fromSnapshot = built.fromSnapshot();
      } else {
        index = TaskIndex.create(file);
      }
    }
    try {
      index.markInUse();
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      Optional<String> cut = journal.recovery().clean()
          ? Optional.empty() : Optional.of(journal.recovery().summary());
      return new Opened(index, new OpenReport(rebuilt, why, replayed, fromSnapshot, millis,
          cut));
    } catch (RuntimeException | Error e) {
      index.close();
      throw e;
    }
  }

  /**
   * Deletes the sort spill files a rebuild or check killed midway left next to its index (up to
   * the size of the journal): only this store's owner, opening it now, makes them.
   */
  private static void deleteSpills(Path folder) throws IOException {
    try (DirectoryStream<Path> spills = Files.newDirectoryStream(folder, "index*.spill")) {
      for (Path spill : spills) {
        Files.deleteIfExists(spill);
      }
    }
  }

  /** An index rebuilt from snapshot and journal, and how many records that took. */
  public record Rebuilt(TaskIndex index, long records, boolean fromSnapshot) {}

  /**
   * Builds a new index in {@code file} (which must not exist) from the last checkpoint's
   * snapshot, when there is one, and the journal after it, as a rebuild at open does.
   */
  public static Rebuilt rebuild(Path folder, Journal journal, Path file, RebuildProgress progress)
      throws IOException {
    Path snapshot = folder.resolve(SnapshotFile.NAME);
    long last = journal.lastSequence();
    SnapshotFile.Info head = Files.exists(snapshot)
        ? SnapshotFile.peek(snapshot) : new SnapshotFile.Info(0, 0);
    long covered = head.lastSequence();
    long total = head.records() + last - covered;
    if (last < covered) {
      throw new FsmException("store " + folder + ": the journal ends at record " + last
          + " but the snapshot covers records up to " + covered + ", so journal segments"
          + " were removed or lost. Restore the store folder from a backup.");
    }
    long[] count = {0};
    // The journal first, sorted by task, then merged with the snapshot into the new index.
    try (JournalTail tail = new JournalTail(file, JournalTail.RUN_BYTES)) {
      sort(folder, journal, covered + 1, tail, count, total, progress);
      TaskIndex index = TaskIndex.fromSnapshot(file, covered == 0 ? SnapshotLoad.NONE
          : each -> SnapshotFile.read(snapshot, record -> each.accept(decode(folder,
              "snapshot record " + (count[0] + 1), record, StoreEventCodec::decodeSnapshotRecord,
              count, total, progress))), tail);
      progress.progress(count[0], total);
      return new Rebuilt(index, count[0], covered > 0);
    }
  }

  /**
   * Reads the journal from {@code first} on into {@code tail}, reading, decoding and keying
   * records on a thread of their own while this one sorts them.
   */
  private static void sort(Path folder, Journal journal, long first, JournalTail tail,
      long[] count, long total, RebuildProgress progress) throws IOException {
    try {
      ReadAhead.<JournalTail.Keys>forEach(each -> journal.replay(first, (sequence, record) ->
          each.accept(JournalTail.keysOf(sequence, decode(folder, "journal record " + sequence,
              record, StoreEventCodec::decode, count, total, progress)))), JournalTail.Keys::weight, "fsm-journal-reader",
          keys -> {
            try {
              tail.add(keys);
            } catch (IOException e) {
              throw new UncheckedIOException(e);
            }
          });
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** Decodes a record for a rebuild, counting it and telling {@code progress} now and then. */
  private static <T> T decode(Path folder, String what, byte[] record,
      Function<byte[], T> decoder, long[] count, long total, RebuildProgress progress) {
    T event;
    try {
      event = decoder.apply(record);
    } catch (IllegalArgumentException e) {
      throw new FsmException("store " + folder + ": " + what + " cannot be read ("
          + e.getMessage() + "). Open the store with the fsm version that wrote it; if that was"
          + " this one, copy the folder somewhere safe and report the problem.", e);
    }
    if (++count[0] % PROGRESS_EVERY == 0) {
      progress.progress(count[0], total);
    }
    return event;
  }

  /**
   * The index as a clean close left it at journal record {@code sequence}, opened after the
   * same time-bounded check as at open, for a repair to read; null when it is missing or fails.
   */
  public static TaskIndex openIfClean(Path folder, long sequence, Duration timeout) {
    Path file = folder.resolve(TaskIndex.FILE);
    if (!Files.isRegularFile(file)) {
      return null;
    }
    try {
      return openBounded(folder, file, sequence, timeout);
    } catch (Unusable e) {
      return null;
    }
  }

  /**
   * The index a clean close left at journal record {@code sequence}, opened to read only after
   * the same time-bounded check as {@link #open} makes, without taking its marker away: empty
   * when the marker names another record, the file is missing or the check fails, and the
   * store must be opened the writing way (which rebuilds it).
   */
  public static Optional<TaskIndex> openToRead(Path folder, long sequence, Duration timeout)
      throws IOException {
    Path file = folder.resolve(TaskIndex.FILE);
    OptionalLong closedAt = CleanMarker.peek(folder);
    if (closedAt.isEmpty() || closedAt.getAsLong() != sequence || !Files.exists(file)) {
      return Optional.empty();
    }
    try {
      check(folder, file, sequence, timeout);
    } catch (Unusable e) {
      return Optional.empty();
    }
    IndexFile opened = IndexFile.openToRead(file);
    try {
      return Optional.of(TaskIndex.open(opened));
    } catch (RuntimeException | Error e) {
      closeQuietly(opened.db());
      return Optional.empty();
    }
  }

  private static TaskIndex openBounded(Path folder, Path file, long sequence, Duration timeout)
      throws Unusable {
    check(folder, file, sequence, timeout);
    // Checked, and closed again: now opened the fast way for use.
    IndexFile checked = IndexFile.open(file);
    try {
      return TaskIndex.open(checked);
    } catch (RuntimeException | Error e) {
      closeQuietly(checked.db());
      throw new Unusable(TaskIndex.FILE + " could not be opened after its check (" + e + ")");
    }
  }

  /**
   * Checks the index through a FileChannel within {@code timeout} (see {@link
   * IndexFile#openToCheck}); throws why it cannot be used.
   */
  private static void check(Path folder, Path file, long sequence, Duration timeout)
      throws Unusable {
    AtomicReference<DB> db = new AtomicReference<>();
    try {
      TimeBound.call("fsm-index-check", timeout, () -> {
        DB opened = IndexFile.openToCheck(file);
        db.set(opened);
        try {
          TaskIndex.openToCheck(opened).check(sequence);
        } finally {
          closeQuietly(opened);
        }
        return true;
      }, passed -> { });
    } catch (TimeBound.Exceeded e) {
      closeAbandoned(db);
      throw new Unusable(TaskIndex.FILE + " did not open within " + timeout.toMillis() + " ms");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IndexMeta.OtherFormat other) {
        throw new Unusable(other.of(TaskIndex.FILE));
      }
      throw new Unusable(TaskIndex.FILE + " is damaged (" + cause.getClass().getSimpleName()
          + (cause.getMessage() == null ? "" : ": " + cause.getMessage()) + ")");
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closeAbandoned(db);
      throw new FsmException("opening store " + folder + " was interrupted; open it again");
    }
  }

  // Closing may block on whatever the stuck check holds, so it gets a thread of its own. The
  // interrupt has closed the check's channel already; this also covers a check stuck elsewhere.
  private static void closeAbandoned(AtomicReference<DB> db) {
    Thread closer = new Thread(() -> closeQuietly(db.get()), "fsm-index-close");
    closer.setDaemon(true);
    closer.start();
  }

  private static void closeQuietly(DB db) {
    if (db == null) {
      return;
    }
    try {
      db.close();
    } catch (RuntimeException e) {
      // A damaged index is being given up; there is nothing to keep.
    }
  }
}

package dev.fsm.store.embedded.journal;

import dev.fsm.FsmException;
import dev.fsm.files.StoreFiles;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * An append-only log of records in segment files, the embedded store's source of truth. One
 * writer thread group-commits: it writes everything waiting, forces once, and only then tells
 * each caller its record is durable.
 *
 * <p>Futures are completed on the writer thread, so actions chained with the non-async {@code
 * then...} methods run there and hold up every appender: keep them short or use the async forms.
 */
public final class Journal implements AutoCloseable {

  /** The journal's folder inside a store folder. */
  public static final String FOLDER = "journal";

  private static final String LOCK_FILE = "journal.lock";

  private final Path folder;
  private final JournalOptions options;
  private final Recovery recovery;
  private final FileChannel lockChannel;
  private final FileLock folderLock;
  private final ConcurrentSkipListMap<Long, Path> segments;
  private final Object segmentsLock = new Object();
  private final GroupCommit commit;
  /** The seal this journal was opened by, whose files' CRCs still stand while their sizes do. */
  private final Optional<JournalSeal> openedBy;
  private final ReachedMark reached;

  private Journal(Path folder, JournalOptions options, FileChannel lockChannel,
      FileLock folderLock, JournalRecovery.Opened opened, JournalNote note) throws IOException {
    this.folder = folder;
    this.options = options;
    this.lockChannel = lockChannel;
    this.folderLock = folderLock;
    this.recovery = opened.recovery();
    this.openedBy = opened.sealed();
    this.segments = new ConcurrentSkipListMap<>(opened.segments());
    Map.Entry<Long, Path> last = segments.lastEntry();
    SegmentWriter writer = new SegmentWriter(folder, last.getValue(), opened.lastSegmentSize(),
        options, this::segmentStarted);
    this.commit = new GroupCommit(folder, writer, opened.lastSequence());
    ReachedMark mark;
    try {
      mark = ReachedMark.start(folder, opened.lastSequence(), note, commit::durableSequence,
          ReachedMark.EVERY);
    } catch (RuntimeException e) {
      commit.close();
      throw e;
    }
    this.reached = mark;
  }

  /**
   * Opens the journal in a folder, creating both when missing. Every frame is verified; a torn
   * tail (bad bytes at the end of the last segment with no sound later record after them) is cut
   * and reported by {@link #recovery()}.
   *
   * @throws JournalDamagedException when there is damage that is not a torn tail, unless the
   *     options accept damage; nothing on disk is changed then
   * @throws FsmException when a segment is not a journal file this version reads, or the folder
   *     is already open
   */
  public static Journal open(Path folder, JournalOptions options) throws IOException {
    return open(folder, options, 0);
  }

  /**
   * Opens the journal as {@link #open(Path, JournalOptions)} does, knowing that every record up
   * to {@code acknowledged} was durable (a store closed cleanly there): a journal that ends
   * before it, however it ends, is refused as damage rather than cut.
   */
  public static Journal open(Path folder, JournalOptions options, long acknowledged)
      throws IOException {
    return open(folder, options, acknowledged, Optional.empty());
  }

  /**
   * Opens the journal as {@link #open(Path, JournalOptions, long)} does; when it still holds
   * {@code seal}, taken at the clean close at {@code acknowledged}, no frame is decoded, as
   * every byte is as that close left it.
   */
  public static Journal open(Path folder, JournalOptions options, long acknowledged,
      Optional<JournalSeal> seal) throws IOException {
    StoreFiles.createFolder(folder);
    FileChannel lockChannel = StoreFiles.open(folder.resolve(LOCK_FILE),
        StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    try {
      FileLock folderLock = lockFolder(folder, lockChannel);
      try {
        JournalNote note = ReachedMark.note(folder);
        Vouched vouched = Vouched.of(acknowledged, seal, note);
        return new Journal(folder, options, lockChannel, folderLock,
            JournalRecovery.recover(folder, options, vouched.acknowledged(), vouched.seal()),
            note);
      } catch (IOException | RuntimeException | Error e) {
        folderLock.release();
        throw e;
      }
    } catch (IOException | RuntimeException | Error e) {
      lockChannel.close();
      throw e;
    }
  }

  /**
   * Checks the journal in {@code folder} without opening it for writing, by its seal when it
   * holds it, else by verifying every frame: its last record when it is sound, empty when
   * opening it would change it (a torn tail to cut, no segment yet). Damage is refused as {@link
   * #open(Path, JournalOptions, long)} refuses it.
   */
  public static OptionalLong soundEnd(Path folder, JournalOptions options, long acknowledged,
      Optional<JournalSeal> seal) throws IOException {
    Vouched vouched = Vouched.of(acknowledged, seal, ReachedMark.note(folder));
    return JournalRecovery.soundEnd(folder, options, vouched.acknowledged(), vouched.seal());
  }

  /** What vouches for the journal's end at an open, and the seal an open may trust. */
  private record Vouched(JournalRecovery.Acknowledged acknowledged, Optional<JournalSeal> seal) {

    /**
     * The journal's own note may vouch for more than a clean close at {@code acknowledged} did:
     * after a crash, it is all there is. A seal is of the clean close, so it counts only if
     * nothing came after.
     */
    static Vouched of(long acknowledged, Optional<JournalSeal> seal, JournalNote note) {
      JournalRecovery.Acknowledged vouched = JournalRecovery.Acknowledged
          .cleanClose(acknowledged).orReached(note.checked());
      return new Vouched(vouched, vouched.sequence() == acknowledged ? seal : Optional.empty());
    }
  }

  /**
   * The newest record the journal in {@code folder} noted as durable (each second while open and
   * at close); empty when it has no readable note. It may lag the journal, never lead it unless
   * records were lost.
   */
  public static OptionalLong noted(Path folder) throws IOException {
    return ReachedMark.read(folder);
  }

  /** What the note of how far the journal in {@code folder} got says, damage included. */
  public static JournalNote note(Path folder) throws IOException {
    return ReachedMark.note(folder);
  }

  /**
   * The seal of this journal, once closed: the CRC of each segment file, computed anew for
   * those written since it opened and carried over from the seal it opened by for the others
   * (their bytes are as that seal vouched; should the disk change one since, the next open finds
   * that the seal no longer holds and checks every frame).
   */
  public JournalSeal seal() throws IOException {
    if (lockChannel.isOpen()) {
      throw new IllegalStateException("journal in " + folder + " is still open");
    }
    return JournalSeal.of(folder, openedBy);
  }

  /** Appends one record; the future gives its sequence once it is on disk. */
  public CompletableFuture<Long> append(byte[] record) {
    Objects.requireNonNull(record, "record");
    checkSize(record);
    return commit.append(record);
  }

  /**
   * Appends records with consecutive sequences, durable together; the future gives the first
   * one's sequence. The list and its arrays must not change until the future completes.
   */
  public CompletableFuture<Long> appendAll(List<byte[]> records) {
    if (records.isEmpty()) {
      throw new IllegalArgumentException("appendAll needs at least one record");
    }
    for (byte[] r : records) {
      checkSize(Objects.requireNonNull(r, "record"));
    }
    return commit.appendAll(List.copyOf(records));
  }

  /** The sequence of the newest durable record; 0 before the first. */
  public long lastSequence() {
    return commit.durableSequence();
  }

  /**
   * Reads durable records from a sequence on, in order, verifying each again.
   *
   * @throws FsmException when records from that sequence on were deleted by compaction
   * @throws JournalDamagedException when a segment was damaged after the journal was opened
   */
  public void replay(long fromSequenceInclusive, RecordConsumer consumer) throws IOException {
    if (fromSequenceInclusive < 1) {
      throw new IllegalArgumentException("journal sequences start at 1");
    }
    long last = commit.durableSequence();
    if (fromSequenceInclusive > last) {
      return;
    }
    Map.Entry<Long, Path> start = segments.floorEntry(fromSequenceInclusive);
    if (start == null) {
      throw compactedAway(fromSequenceInclusive);
    }
    List<Map.Entry<Long, Path>> from =
        new ArrayList<>(segments.tailMap(start.getKey(), true).entrySet());
    long expected = start.getKey();
    for (int i = 0; expected <= last; i++) {
      if (i == from.size() || from.get(i).getKey() != expected) {
        Path at = i == 0 ? start.getValue() : from.get(i - 1).getValue();
        throw damagedSinceOpen(at, -1, "record " + expected + " is in no segment");
      }
      Path file = from.get(i).getValue();
      try (SegmentReader r = new SegmentReader(file, options.maxRecordBytes())) {
        String torn = r.readHeader(expected);
        if (torn != null) {
          throw damagedSinceOpen(file, 0, torn);
        }
        while (expected <= last) {
          boolean wanted = expected >= fromSequenceInclusive;
          if (!r.next(expected, wanted)) {
            if (r.damage() != null) {
              throw damagedSinceOpen(file, r.frameOffset(), r.damage());
            }
            break;
          }
          if (wanted) {
            consumer.accept(expected, r.payload());
          }
          expected++;
        }
      } catch (NoSuchFileException e) {
        throw compactedAway(expected);
      }
    }
  }

  /** What opening found and repaired. */
  public Recovery recovery() {
    return recovery;
  }

  /**
   * Runs {@code hook} on the writer thread as each pass begins, before it writes and forces what
   * it took: the moment the callers waiting for that pass have nothing to do until the force
   * ends, so work done then costs them no time. The hook must be quick and must not throw.
   * Hooks added before keep running, first.
   */
  public void onPass(Runnable hook) {
    commit.onPass(hook);
  }

  /** Counts of what this journal has written since it was opened. */
  public JournalStats stats() {
    return commit.stats();
  }

  /** Record frame bytes written since the journal was opened; cheap enough for every append. */
  public long bytesWritten() {
    return commit.bytesWritten();
  }

  /** The journal's folder. */
  public Path folder() {
    return folder;
  }

  /**
   * Closes the open segment and starts a new one once everything appended before is durable.
   * Does nothing when the open segment holds no records.
   */
  public void roll() {
    if (commit.isWriterThread()) {
      throw new IllegalStateException("roll() cannot wait for the writer from the writer's own"
          + " thread: call it outside future callbacks");
    }
    try {
      commit.roll().join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
  }

  /**
   * Deletes whole segments whose records all come before {@code sequence}, never the one being
   * written. For compaction, once a snapshot holds everything before {@code sequence}.
   */
  public void deleteSegmentsBefore(long sequence) throws IOException {
    synchronized (segmentsLock) {
      while (true) {
        Map.Entry<Long, Path> oldest = segments.firstEntry();
        Long next = segments.higherKey(oldest.getKey());
        // A segment ends where the next begins; the last one is still being written.
        if (next == null || next > sequence) {
          break;
        }
        Files.deleteIfExists(oldest.getValue());
        segments.remove(oldest.getKey());
        // Oldest first and each made durable, so a crash leaves a contiguous run of segments.
        Segments.fsyncFolder(folder);
      }
    }
  }

  /**
   * Makes everything appended so far durable, stops the writer and releases the folder. Appends
   * after this throw IllegalStateException.
   */
  @Override
  public void close() throws IOException {
    if (commit.isWriterThread()) {
      throw new IllegalStateException("close() cannot wait for the writer from the writer's own"
          + " thread: call it outside future callbacks");
    }
    try {
      commit.close();
    } finally {
      reached.close();
    }
    if (lockChannel.isOpen()) {
      try {
        folderLock.release();
      } finally {
        lockChannel.close();
      }
    }
  }

  /** Breaks the journal as a failing disk would. For tests. */
  void simulateDiskFailure() throws IOException {
    commit.simulateDiskFailure();
  }

  private void checkSize(byte[] record) {
    if (record.length > options.maxRecordBytes()) {
      throw new IllegalArgumentException("a journal record is limited to "
          + Segments.size(options.maxRecordBytes()) + "; this one is " + record.length + " bytes");
    }
  }

  private void segmentStarted(long first, Path file) {
    synchronized (segmentsLock) {
      segments.put(first, file);
    }
  }

  private FsmException compactedAway(long sequence) {
    Map.Entry<Long, Path> oldest = segments.firstEntry();
    return new FsmException("the journal in " + folder + " no longer holds record " + sequence
        + ": its oldest segment, " + oldest.getValue().getFileName() + ", starts at record "
        + oldest.getKey() + " (older records were compacted into a snapshot). Replay from the"
        + " snapshot's last record + 1.");
  }

  private JournalDamagedException damagedSinceOpen(Path file, long offset, String reason) {
    String where = offset >= 0 ? " at byte " + offset : "";
    return new JournalDamagedException("journal segment " + file + " is damaged" + where + " ("
        + reason + "), though it was sound when the journal was opened: the disk or another"
        + " program changed it. Stop fsm, copy the store folder somewhere safe, and run `fsm store"
        + " repair`.", file, offset, reason);
  }

  private static FileLock lockFolder(Path folder, FileChannel lockChannel) throws IOException {
    FileLock held;
    try {
      held = lockChannel.tryLock();
    } catch (OverlappingFileLockException e) {
      throw new FsmException("the journal in " + folder + " is already open in this process;"
          + " close it before opening it again.");
    }
    if (held == null) {
      throw new FsmException("the journal in " + folder + " is already open in another process;"
          + " stop that process (a store folder has one owner at a time) and try again.");
    }
    return held;
  }
}

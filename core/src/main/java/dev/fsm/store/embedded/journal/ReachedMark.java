package dev.fsm.store.embedded.journal;

import dev.fsm.Timers;
import dev.fsm.files.StoreFiles;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.zip.CRC32C;

/**
 * {@code reached} in the journal's folder: the newest record the journal had made durable, noted
 * once a second while it is open and at its close. A journal cut short at a record boundary, or
 * missing its last segment, reads as sound frame by frame; this note is what tells such a loss of
 * acknowledged records from a journal that really ended there, after a crash as well as after a
 * clean close. It only ever lags the truth, so a lost or damaged note is no evidence and reads as
 * none. Written in place, 16 bytes at offset 0 with a CRC, so a torn write reads as none too.
 */
final class ReachedMark implements AutoCloseable {

  static final String FILE = "reached";
  static final Duration EVERY = Duration.ofSeconds(1);

  private static final byte[] MAGIC = {'F', 'S', 'M', 'R'};
  private static final int BYTES = 16;

  private static final System.Logger LOG = System.getLogger(ReachedMark.class.getName());

  private final FileChannel channel;
  private final LongSupplier durable;
  private final ScheduledExecutorService timer;
  private long noted;

  /** With no channel, a mark that notes nothing: the note could not be written. */
  private ReachedMark(FileChannel channel, LongSupplier durable, long noted, Duration every) {
    this.channel = channel;
    this.durable = durable;
    this.noted = noted;
    this.timer = Timers.daemon("fsm-journal-mark");
    if (channel != null) {
      timer.scheduleWithFixedDelay(this::noteQuietly, every.toMillis(), every.toMillis(),
          TimeUnit.MILLISECONDS);
    }
  }

  /**
   * The record the note in {@code folder} names; empty when there is none, and when it is
   * damaged (for {@code store repair}, which takes no damaged evidence).
   */
  static OptionalLong read(Path folder) throws IOException {
    return note(folder).sequence();
  }

  /** What the note in {@code folder} says. */
  static JournalNote note(Path folder) throws IOException {
    Path file = folder.resolve(FILE);
    if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
      return sound(file, OptionalLong.empty());
    }
    byte[] bytes;
    try (FileChannel c = StoreFiles.open(file, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.allocate(BYTES);
      while (b.hasRemaining() && c.read(b) > 0) {
        // Reads until the note's 16 bytes or the end of the file.
      }
      if (b.hasRemaining()) {
        return damaged(file, b.position() + " of its " + BYTES + " bytes");
      }
      bytes = b.array();
    }
    ByteBuffer b = ByteBuffer.wrap(bytes);
    byte[] magic = new byte[MAGIC.length];
    b.get(magic);
    long sequence = b.getLong();
    int crc = b.getInt();
    if (!Arrays.equals(magic, MAGIC)) {
      return damaged(file, "it does not start as a note does");
    }
    if (crc != crc(bytes) || sequence < 0) {
      return damaged(file, "CRC mismatch");
    }
    return sound(file, OptionalLong.of(sequence));
  }

  private static JournalNote sound(Path file, OptionalLong sequence) {
    return new JournalNote(file, sequence, Optional.empty());
  }

  private static JournalNote damaged(Path file, String why) {
    return new JournalNote(file, OptionalLong.empty(), Optional.of(why));
  }

  /**
   * Starts noting, every {@code every}, the record {@code durable} gives, beginning with {@code
   * opened}, the record the journal opened with; {@code was} is the note the open read. A note
   * that cannot be written (a full disk) keeps no journal from opening: it is said once, and
   * the journal runs without one.
   */
  static ReachedMark start(Path folder, long opened, JournalNote was, LongSupplier durable,
      Duration every) {
    Path file = folder.resolve(FILE);
    FileChannel channel = null;
    try {
      boolean existed = Files.exists(file, LinkOption.NOFOLLOW_LINKS);
      if (!existed) {
        // Made whole or not at all: a note cut short by a crash would read as damage.
        StoreFiles.writeAtomically(file, bytes(opened));
        Segments.fsyncFolder(folder);
      }
      // A journal opened where its note says (after a clean close, always) costs no write.
      boolean current = existed && was.sequence().equals(OptionalLong.of(opened));
      channel = StoreFiles.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE);
      if (!current) {
        write(channel, opened);
      }
      return new ReachedMark(channel, durable, opened, every);
    } catch (IOException e) {
      closeQuietly(channel);
      LOG.log(Level.WARNING, "cannot note how far the journal got in " + file + " ("
          + (e.getMessage() != null ? e.getMessage() : e.toString()) + "); while it cannot, a"
          + " journal cut short after a crash is not noticed");
      return new ReachedMark(null, durable, opened, every);
    }
  }

  /** Notes the newest durable record now, if it moved since the last note. */
  synchronized void note() throws IOException {
    long sequence = durable.getAsLong();
    if (sequence > noted && channel != null && channel.isOpen()) {
      write(channel, sequence);
      noted = sequence;
    }
  }

  private void noteQuietly() {
    try {
      note();
    } catch (IOException | RuntimeException e) {
      // The note only lags then: a stale one is never evidence against records that are there.
    }
  }

  /** Stops the timer and notes the record the journal closed at, if it can. */
  @Override
  public void close() {
    Timers.stop(timer, Duration.ofSeconds(10));
    noteQuietly();
    synchronized (this) {
      closeQuietly(channel);
    }
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        // Every note written was forced; closing loses nothing.
      }
    }
  }

  private static void write(FileChannel channel, long sequence) throws IOException {
    Segments.writeFully(channel, ByteBuffer.wrap(bytes(sequence)), 0);
    channel.force(false);
  }

  private static byte[] bytes(long sequence) {
    ByteBuffer b = ByteBuffer.allocate(BYTES);
    b.put(MAGIC).putLong(sequence).putInt(0);
    byte[] bytes = b.array();
    ByteBuffer.wrap(bytes).putInt(MAGIC.length + Long.BYTES, crc(bytes));
    return bytes;
  }

  private static int crc(byte[] bytes) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, 0, MAGIC.length + Long.BYTES);
    return (int) crc.getValue();
  }
}

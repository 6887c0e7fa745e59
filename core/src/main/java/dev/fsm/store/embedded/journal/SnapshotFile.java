package dev.fsm.store.embedded.journal;

import dev.fsm.FsmException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.zip.CRC32C;

/**
 * A compaction snapshot: the store's live records as of a journal sequence, written atomically
 * so that the journal segments before it can be deleted.
 *
 * <p>Layout: header [FSMS][version][long lastSequence][long records][int CRC32C of the header],
 * then per record [int length][int CRC32C of the payload][payload], then the trailer [FSME][int
 * CRC32C of all record frames].
 */
public final class SnapshotFile {

  /** The snapshot's name in a store folder. */
  public static final String NAME = "snapshot";

  /** What a snapshot holds. */
  public record Info(long lastSequence, long records) {}

  /** The largest record a snapshot holds: 64 MiB. */
  public static final int MAX_RECORD_BYTES = 64 << 20;

  static final byte[] MAGIC = {'F', 'S', 'M', 'S'};
  static final byte[] TRAILER_MAGIC = {'F', 'S', 'M', 'E'};
  static final byte VERSION = 1;
  static final int HEADER_BYTES = 4 + 1 + 8 + 8 + 4;
  static final int TRAILER_BYTES = 4 + 4;
  private static final int FRAME_HEADER_BYTES = 4 + 4;
  private static final int BUFFER_BYTES = 1 << 20;

  private SnapshotFile() {}

  /**
   * Writes the records to {@code file.tmp} (with direct I/O where the file system allows it; see
   * {@link SnapshotOutput}), forces it, renames it over {@code file} and forces the folder: the
   * file is either the old snapshot or the whole new one, never a mix.
   */
  public static Info write(Path file, long lastSequence, Iterator<byte[]> records)
      throws IOException {
    if (lastSequence < 0) {
      throw new IllegalArgumentException("a snapshot's last sequence cannot be negative");
    }
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      long count = 0;
      try (SnapshotOutput out = SnapshotOutput.create(tmp, HEADER_BYTES)) {
        CRC32C body = new CRC32C();
        CRC32C record = new CRC32C();
        ByteBuffer frame = ByteBuffer.allocate(FRAME_HEADER_BYTES);
        while (records.hasNext()) {
          byte[] r = Objects.requireNonNull(records.next(), "snapshot record");
          if (r.length > MAX_RECORD_BYTES) {
            throw new IllegalArgumentException("a snapshot record is limited to 64 MiB; record "
                + (count + 1) + " is " + r.length + " bytes");
          }
          record.reset();
          record.update(r);
          frame.clear().putInt(r.length).putInt((int) record.getValue());
          body.update(frame.array());
          body.update(r);
          out.write(frame.array());
          out.write(r);
          count++;
        }
        out.write(ByteBuffer.allocate(TRAILER_BYTES).put(TRAILER_MAGIC)
            .putInt((int) body.getValue()).flip());
        out.finish(header(lastSequence, count));
      }
      Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      Segments.fsyncFolder(file.toAbsolutePath().getParent());
      return new Info(lastSequence, count);
    } catch (IOException | RuntimeException | Error e) {
      Files.deleteIfExists(tmp);
      throw e;
    }
  }

  /**
   * Verifies the snapshot while passing its records to the consumer in order. When it throws,
   * the consumer has seen part of the records at most, and what it built must be discarded.
   *
   * @throws FsmException naming the file when it is not a sound snapshot
   */
  public static Info read(Path file, Consumer<byte[]> consumer) throws IOException {
    try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = c.size();
      if (size < HEADER_BYTES + TRAILER_BYTES) {
        throw bad(file, "is too short to be a snapshot (" + size + " bytes)");
      }
      ChannelInput in = new ChannelInput(c, 0, BUFFER_BYTES);
      in.fill(HEADER_BYTES);
      ByteBuffer b = in.buffer();
      byte[] header = new byte[HEADER_BYTES];
      b.get(header);
      Info claimed = parseHeader(file, header);
      long lastSequence = claimed.lastSequence();
      long expected = claimed.records();
      long end = size - TRAILER_BYTES;
      CRC32C body = new CRC32C();
      CRC32C record = new CRC32C();
      long count = 0;
      while (in.offset() < end) {
        long at = in.offset();
        if (end - at < FRAME_HEADER_BYTES || !in.fill(FRAME_HEADER_BYTES)) {
          throw bad(file, "is cut short or damaged: record " + (count + 1) + " at byte " + at
              + " has no room before the trailer");
        }
        b = in.buffer();
        int length = b.getInt(b.position());
        int stored = b.getInt(b.position() + 4);
        if (length < 0 || length > MAX_RECORD_BYTES || length > end - at - FRAME_HEADER_BYTES) {
          throw bad(file, "is cut short or damaged: record " + (count + 1) + " at byte " + at
              + " has length " + length + ", which runs past the end of the records");
        }
        in.fill(FRAME_HEADER_BYTES + length);
        b = in.buffer();
        body.update(b.slice(b.position(), FRAME_HEADER_BYTES + length));
        byte[] payload = new byte[length];
        b.get(b.position() + FRAME_HEADER_BYTES, payload);
        record.reset();
        record.update(payload);
        if ((int) record.getValue() != stored) {
          throw bad(file, "has a damaged record " + (count + 1) + " at byte " + at
              + " (CRC mismatch)");
        }
        in.skip(FRAME_HEADER_BYTES + length);
        count++;
        consumer.accept(payload);
      }
      if (!in.fill(TRAILER_BYTES)) {
        throw bad(file, "ends inside its trailer at byte " + end);
      }
      b = in.buffer();
      byte[] trailerMagic = new byte[4];
      b.get(b.position(), trailerMagic);
      if (!Arrays.equals(trailerMagic, TRAILER_MAGIC)) {
        throw bad(file, "has a damaged trailer (no \"FSME\" at byte " + end + ")");
      }
      if (b.getInt(b.position() + 4) != (int) body.getValue()) {
        throw bad(file, "has damaged records (the trailer CRC at byte " + (end + 4)
            + " does not match them)");
      }
      if (count != expected) {
        throw bad(file, "holds " + count + " records, but its header says " + expected
            + " at byte 13");
      }
      return new Info(lastSequence, count);
    }
  }

  /**
   * What the snapshot's header says it holds, without reading its records (which {@link #read}
   * verifies).
   *
   * @throws FsmException naming the file when the header is damaged
   */
  public static Info peek(Path file) throws IOException {
    try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ)) {
      if (c.size() < HEADER_BYTES + TRAILER_BYTES) {
        throw bad(file, "is too short to be a snapshot (" + c.size() + " bytes)");
      }
      ChannelInput in = new ChannelInput(c, 0, HEADER_BYTES);
      in.fill(HEADER_BYTES);
      byte[] header = new byte[HEADER_BYTES];
      in.buffer().get(header);
      return parseHeader(file, header);
    }
  }

  private static Info parseHeader(Path file, byte[] header) {
    if (!Arrays.equals(header, 0, 4, MAGIC, 0, 4)) {
      throw bad(file, "does not start with \"FSMS\" at byte 0: it is not an fsm snapshot");
    }
    if (header[4] != VERSION) {
      throw new FsmException("snapshot " + file + " is in format " + (header[4] & 0xff)
          + ", but this fsm reads format " + VERSION + ": another fsm version wrote it, or the"
          + " file is damaged. Open the store with the fsm version that wrote it.");
    }
    CRC32C crc = new CRC32C();
    crc.update(header, 0, HEADER_BYTES - 4);
    ByteBuffer h = ByteBuffer.wrap(header);
    if ((int) crc.getValue() != h.getInt(HEADER_BYTES - 4)) {
      throw bad(file, "has a damaged header at byte 0 (CRC mismatch)");
    }
    return new Info(h.getLong(5), h.getLong(13));
  }

  private static ByteBuffer header(long lastSequence, long count) {
    ByteBuffer h = ByteBuffer.allocate(HEADER_BYTES);
    h.put(MAGIC).put(VERSION).putLong(lastSequence).putLong(count);
    CRC32C crc = new CRC32C();
    crc.update(h.array(), 0, HEADER_BYTES - 4);
    h.putInt((int) crc.getValue()).flip();
    return h;
  }

  private static Damaged bad(Path file, String problem) {
    return new Damaged(file, problem);
  }

  /** A snapshot that is not sound; {@link #problem} says what is wrong and where. */
  public static final class Damaged extends FsmException {

    private final String problem;

    Damaged(Path file, String problem) {
      super("snapshot " + file + " " + problem + ". It is the only copy of the records"
          + " compacted out of the journal, so fsm opened nothing and changed nothing. Run"
          + " `fsm store repair` to keep every record that can be proven and report exactly what"
          + " is lost, or restore the store folder from a backup.");
      this.problem = "snapshot " + file + " " + problem;
    }

    /** The file and what is wrong with it, without advice. */
    public String problem() {
      return problem;
    }
  }
}

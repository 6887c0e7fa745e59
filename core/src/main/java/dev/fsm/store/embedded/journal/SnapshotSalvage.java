package dev.fsm.store.embedded.journal;

import dev.fsm.FsmException;
import dev.fsm.store.embedded.journal.JournalSalvage.Damage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.OptionalLong;
import java.util.zip.CRC32C;

/**
 * Reads every sound record of a damaged snapshot ({@link SnapshotFile}'s layout) without
 * changing it, for {@code fsm store repair}: past bad bytes it looks for the next record whose
 * length fits and whose CRC matches.
 */
public final class SnapshotSalvage {

  /**
   * What the snapshot's header says, when it is sound.
   *
   * @param lastSequence the journal record the snapshot covers, empty when the header is bad
   * @param records how many records it found
   */
  public record Result(OptionalLong lastSequence, long records) {}

  /** Receives what a salvage finds, in file order. */
  public interface Visitor {

    /** A record whose CRC matches; the caller decides whether it decodes. */
    void record(long offset, byte[] payload) throws IOException;

    /** Bad bytes. */
    void damaged(Damage damage) throws IOException;
  }

  private static final int FRAME_HEADER_BYTES = 8;

  private SnapshotSalvage() {}

  /** Reads {@code file}, passing what it finds to the visitor. */
  public static Result read(Path file, Visitor visitor) throws IOException {
    ByteBuffer bytes;
    try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ)) {
      if (c.size() > Integer.MAX_VALUE) {
        throw new FsmException("snapshot " + file + " is larger than 2 GiB; fsm store repair"
            + " cannot salvage a damaged snapshot that large. Restore the store folder from a"
            + " backup.");
      }
      bytes = c.map(FileChannel.MapMode.READ_ONLY, 0, c.size());
    }
    int size = bytes.limit();
    OptionalLong last = header(file, bytes, visitor);
    int end = size;
    boolean trailer = size >= SnapshotFile.HEADER_BYTES + SnapshotFile.TRAILER_BYTES
        && Arrays.equals(range(bytes, size - SnapshotFile.TRAILER_BYTES, 4),
            SnapshotFile.TRAILER_MAGIC);
    if (trailer) {
      end = size - SnapshotFile.TRAILER_BYTES;
    }
    CRC32C body = new CRC32C();
    boolean damaged = false;
    long count = 0;
    int at = Math.min(end, SnapshotFile.HEADER_BYTES);
    while (at < end) {
      if (sound(bytes, at, end)) {
        int length = bytes.getInt(at);
        body.update(bytes.slice(at, FRAME_HEADER_BYTES + length));
        visitor.record(at, range(bytes, at + FRAME_HEADER_BYTES, length));
        count++;
        at += FRAME_HEADER_BYTES + length;
        continue;
      }
      int next = at + 1;
      while (next < end && !sound(bytes, next, end)) {
        next++;
      }
      damaged = true;
      visitor.damaged(new Damage(file, at, next - at, "a damaged record (its CRC or length does"
          + " not match)", claimed(bytes, at, next)));
      at = next;
    }
    if (!trailer) {
      visitor.damaged(new Damage(file, Math.max(SnapshotFile.HEADER_BYTES, size - 8), 0,
          "no trailer: the file is cut short or its trailer is damaged", null));
    } else if (!damaged && bytes.getInt(size - 4) != (int) body.getValue()) {
      visitor.damaged(new Damage(file, size - 4L, 4, "the trailer's CRC does not match the"
          + " records", null));
    }
    return new Result(last, count);
  }

  private static OptionalLong header(Path file, ByteBuffer bytes, Visitor visitor)
      throws IOException {
    if (bytes.limit() < SnapshotFile.HEADER_BYTES) {
      visitor.damaged(new Damage(file, 0, bytes.limit(), "the file ends inside the header",
          null));
      return OptionalLong.empty();
    }
    byte[] header = range(bytes, 0, SnapshotFile.HEADER_BYTES);
    CRC32C crc = new CRC32C();
    crc.update(header, 0, SnapshotFile.HEADER_BYTES - 4);
    ByteBuffer h = ByteBuffer.wrap(header);
    if (Arrays.equals(header, 0, 4, SnapshotFile.MAGIC, 0, 4)
        && header[4] != SnapshotFile.VERSION) {
      throw new FsmException("snapshot " + file + " is in format " + (header[4] & 0xff)
          + ", but this fsm reads format " + SnapshotFile.VERSION + ": another fsm version"
          + " wrote it, so this one will not repair the store. Use the fsm version that wrote"
          + " it.");
    }
    if (!Arrays.equals(header, 0, 4, SnapshotFile.MAGIC, 0, 4)
        || (int) crc.getValue() != h.getInt(SnapshotFile.HEADER_BYTES - 4)) {
      visitor.damaged(new Damage(file, 0, SnapshotFile.HEADER_BYTES, "the header is damaged",
          null));
      return OptionalLong.empty();
    }
    return OptionalLong.of(h.getLong(5));
  }

  private static boolean sound(ByteBuffer bytes, int at, int end) {
    if (end - at < FRAME_HEADER_BYTES) {
      return false;
    }
    int length = bytes.getInt(at);
    // No snapshot record is empty, and zeros would otherwise pass as empty records.
    if (length < 1 || length > SnapshotFile.MAX_RECORD_BYTES
        || length > end - at - FRAME_HEADER_BYTES) {
      return false;
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes.slice(at + FRAME_HEADER_BYTES, length));
    return (int) crc.getValue() == bytes.getInt(at + 4);
  }

  /** What the bytes at {@code at} would carry if their length is right; null if it does not fit. */
  private static byte[] claimed(ByteBuffer bytes, int at, int end) {
    if (end - at < FRAME_HEADER_BYTES) {
      return null;
    }
    int length = bytes.getInt(at);
    return length < 1 || length > end - at - FRAME_HEADER_BYTES ? null
        : range(bytes, at + FRAME_HEADER_BYTES, length);
  }

  private static byte[] range(ByteBuffer bytes, int at, int n) {
    byte[] b = new byte[n];
    bytes.get(at, b);
    return b;
  }
}

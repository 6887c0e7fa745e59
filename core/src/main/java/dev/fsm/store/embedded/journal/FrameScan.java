package dev.fsm.store.embedded.journal;

import dev.fsm.FsmException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Looks for sound frames at any byte of a segment, not only where the previous frame ended: how
 * opening tells a torn tail (nothing sound after the bad bytes) from damage (a sound, later
 * record after them), and how repair finds the records after damage.
 */
final class FrameScan {

  /** A sound frame: its payload is {@code length} bytes at {@code offset + 16}. */
  record Frame(long offset, int length, long sequence) {

    long end() {
      return offset + Segments.FRAME_HEADER_BYTES + length;
    }
  }

  private final ByteBuffer bytes;
  private final int maxRecordBytes;
  private final CRC32C crc = new CRC32C();

  private FrameScan(ByteBuffer bytes, int maxRecordBytes) {
    this.bytes = bytes;
    this.maxRecordBytes = maxRecordBytes;
  }

  /** Maps a segment read-only for scanning. */
  static FrameScan of(Path file, int maxRecordBytes) throws IOException {
    try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = c.size();
      if (size > Integer.MAX_VALUE) {
        throw new FsmException("journal segment " + file + " is " + size + " bytes, larger than"
            + " any segment fsm writes; move it out of the journal folder");
      }
      return new FrameScan(c.map(FileChannel.MapMode.READ_ONLY, 0, size), maxRecordBytes);
    }
  }

  long size() {
    return bytes.limit();
  }

  /** The sound frame starting exactly at {@code offset}, or null. */
  Frame at(long offset) {
    if (offset < 0 || offset + Segments.FRAME_HEADER_BYTES > bytes.limit()) {
      return null;
    }
    int at = (int) offset;
    int length = bytes.getInt(at);
    if (length < 0 || length > maxRecordBytes
        || (long) at + Segments.FRAME_HEADER_BYTES + length > bytes.limit()) {
      return null;
    }
    long sequence = bytes.getLong(at + 8);
    if (sequence < 1) {
      return null;
    }
    return Segments.crcMatches(crc, bytes, at, length) ? new Frame(offset, length, sequence)
        : null;
  }

  /**
   * The first sound frame starting at or after {@code from} whose sequence is above {@code
   * after}, or null. A random 16 bytes pass the length, sequence and CRC tests together about
   * once in 2^32 tries, so a frame found here was written as one.
   */
  Frame next(long from, long after) {
    for (long at = Math.max(from, 0); at + Segments.FRAME_HEADER_BYTES <= bytes.limit(); at++) {
      int i = (int) at;
      // Cheap tests before the CRC: most offsets fail on the length or the sequence.
      int length = bytes.getInt(i);
      if (length < 0 || length > maxRecordBytes) {
        continue;
      }
      long sequence = bytes.getLong(i + 8);
      if (sequence <= after) {
        continue;
      }
      Frame f = at(at);
      if (f != null) {
        return f;
      }
    }
    return null;
  }

  /** A copy of {@code n} bytes at {@code offset}. */
  byte[] range(long offset, int n) {
    byte[] b = new byte[n];
    bytes.get((int) offset, b);
    return b;
  }

  /** True when every byte in [from, to) is zero. */
  boolean isZero(long from, long to) {
    for (long at = from; at < to; at++) {
      if (bytes.get((int) at) != 0) {
        return false;
      }
    }
    return true;
  }

  /** A frame's payload. */
  byte[] payload(Frame f) {
    byte[] p = new byte[f.length()];
    bytes.get((int) f.offset() + Segments.FRAME_HEADER_BYTES, p);
    return p;
  }

  /**
   * What the bytes at {@code offset} would be as a record if their length field is right, for
   * naming what damaged bytes probably held; null when the length does not fit.
   */
  byte[] claimedPayload(long offset, long end) {
    if (offset + Segments.FRAME_HEADER_BYTES > end) {
      return null;
    }
    int length = bytes.getInt((int) offset);
    if (length < 0 || offset + Segments.FRAME_HEADER_BYTES + length > end) {
      return null;
    }
    byte[] p = new byte[length];
    bytes.get((int) offset + Segments.FRAME_HEADER_BYTES, p);
    return p;
  }
}

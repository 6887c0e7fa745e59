package dev.fsm.store.embedded.journal;

import dev.fsm.FsmException;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * Reads one segment front to back, verifying every frame. It never seeks back, so a scan costs
 * one sequential read of the file whatever the bytes hold.
 */
final class SegmentReader implements Closeable {

  private final Path file;
  private final int maxRecordBytes;
  private final FileChannel channel;
  private final long size;
  private final ChannelInput in;
  private final CRC32C crc = new CRC32C();

  private long frameOffset;
  private byte[] payload;
  private String damage;

  SegmentReader(Path file, int maxRecordBytes) throws IOException {
    this.file = file;
    this.maxRecordBytes = maxRecordBytes;
    this.channel = FileChannel.open(file, StandardOpenOption.READ);
    this.size = channel.size();
    this.in = new ChannelInput(channel, 0, 1 << 20);
  }

  /** The file size when it was opened. */
  long size() {
    return size;
  }

  /** Where the last frame read (or the damage found) starts; the file size after a clean end. */
  long frameOffset() {
    return frameOffset;
  }

  /** The last record's bytes, when next() was asked for them. */
  byte[] payload() {
    return payload;
  }

  /** Why the last next() stopped, or null when the file simply ended there. */
  String damage() {
    return damage;
  }

  /**
   * Reads the header: null when it is good, the reason when it is torn (the file ends inside it,
   * or it is zero bytes that never reached the disk).
   *
   * @throws FsmException when the file is not a journal segment this version can read
   */
  String readHeader(long expectedFirst) throws IOException {
    if (!in.fill(Segments.HEADER_BYTES)) {
      return String.format(Locale.ROOT, "file ends inside the segment header (%d of %d bytes)",
          in.available(), Segments.HEADER_BYTES);
    }
    ByteBuffer b = in.buffer();
    int at = b.position();
    byte[] header = new byte[Segments.HEADER_BYTES];
    b.get(at, header);
    if (allZero(header)) {
      return "the segment header is zero bytes (it was never written to the disk)";
    }
    byte[] magic = Arrays.copyOf(header, 4);
    if (!Arrays.equals(magic, Segments.MAGIC)) {
      throw new FsmException(file + " is not an fsm journal segment: it starts with bytes "
          + hex(magic) + " at byte 0 instead of \"FSMJ\", so fsm opened nothing and changed"
          + " nothing. If it is a damaged segment, run `fsm store repair` to keep every record"
          + " that can be proven; if it is a foreign file, move it out of the journal folder "
          + file.getParent() + ".");
    }
    int version = header[4] & 0xff;
    if (version != Segments.VERSION) {
      throw new FsmException(file + " is in journal format " + version + ", but this fsm reads"
          + " format " + Segments.VERSION + ": another fsm version wrote it, or the file is"
          + " damaged. Open the store with the fsm version that wrote it.");
    }
    long first = b.getLong(at + 5);
    if (first != expectedFirst) {
      throw new FsmException(file + " says in its header that it starts at record " + first
          + ", but its name says " + expectedFirst + ". Was it renamed? Give it back its name "
          + Segments.fileName(first) + ".");
    }
    in.skip(Segments.HEADER_BYTES);
    return null;
  }

  /**
   * Reads the next frame. True when it is a good record with the expected sequence; false at the
   * end of the file (damage() null) or at damage (damage() says why, frameOffset() where).
   */
  boolean next(long expectedSequence, boolean wantPayload) throws IOException {
    frameOffset = in.offset();
    payload = null;
    damage = null;
    if (!in.fill(1)) {
      return false;
    }
    if (!in.fill(Segments.FRAME_HEADER_BYTES)) {
      damage = String.format(Locale.ROOT, "file ends inside a record header (%d of %d bytes)",
          in.available(), Segments.FRAME_HEADER_BYTES);
      return false;
    }
    ByteBuffer b = in.buffer();
    int at = b.position();
    int length = b.getInt(at);
    int storedCrc = b.getInt(at + 4);
    long sequence = b.getLong(at + 8);
    if (length == 0 && storedCrc == 0 && sequence == 0) {
      // No real frame is all zeros: the CRC of a sequence and an empty payload is never 0.
      damage = "zero bytes where a record should start (space allocated but never written)";
      return false;
    }
    if (length < 0) {
      damage = "record length " + length + " is negative";
      return false;
    }
    if (length > maxRecordBytes) {
      damage = "record length " + length + " is larger than the " + Segments.size(maxRecordBytes)
          + " limit";
      return false;
    }
    int frame = Segments.FRAME_HEADER_BYTES + length;
    if (!in.fill(frame)) {
      damage = String.format(Locale.ROOT, "file ends inside a record (%d of %d bytes)",
          in.available(), frame);
      return false;
    }
    b = in.buffer();
    at = b.position();
    if (!Segments.crcMatches(crc, b, at, length)) {
      damage = "CRC mismatch";
      return false;
    }
    if (sequence != expectedSequence) {
      damage = "record " + sequence + " where " + expectedSequence + " was expected";
      return false;
    }
    if (wantPayload) {
      payload = new byte[length];
      b.get(at + Segments.FRAME_HEADER_BYTES, payload);
    }
    in.skip(frame);
    return true;
  }

  @Override
  public void close() throws IOException {
    channel.close();
  }

  private static boolean allZero(byte[] bytes) {
    for (byte x : bytes) {
      if (x != 0) {
        return false;
      }
    }
    return true;
  }

  private static String hex(byte[] bytes) {
    StringBuilder s = new StringBuilder();
    for (byte x : bytes) {
      s.append(s.length() == 0 ? "" : " ").append(String.format(Locale.ROOT, "%02x", x & 0xff));
    }
    return s.toString();
  }
}

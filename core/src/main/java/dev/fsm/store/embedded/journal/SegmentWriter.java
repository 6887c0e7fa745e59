package dev.fsm.store.embedded.journal;

import dev.fsm.files.StoreFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.BiConsumer;
import java.util.zip.CRC32C;

/**
 * The writer thread's side of a journal: frames records into one reused direct buffer, writes
 * them to the open segment, rolls to a new segment when it is full, and forces. Only the writer
 * thread calls it.
 */
final class SegmentWriter {

  private final Path folder;
  private final long segmentBytes;
  private final BiConsumer<Long, Path> onNewSegment;
  private final ByteBuffer buffer;
  private final CRC32C crc = new CRC32C();
  private final byte[] sequenceBytes = new byte[8];

  private FileChannel channel;
  private Path file;
  /** Bytes of the open segment already written to the channel. */
  private long position;
  private boolean unforced;

  private volatile long forces;
  private volatile long bytes;

  /** Continues the existing segment that ends at {@code size}. */
  SegmentWriter(Path folder, Path last, long size, JournalOptions options,
      BiConsumer<Long, Path> onNewSegment) throws IOException {
    this.folder = folder;
    this.segmentBytes = options.segmentBytes();
    this.onNewSegment = onNewSegment;
    this.buffer = ByteBuffer.allocateDirect(
        Math.max(1 << 20, Segments.FRAME_HEADER_BYTES + options.maxRecordBytes()));
    this.channel = StoreFiles.open(last, StandardOpenOption.READ, StandardOpenOption.WRITE);
    this.file = last;
    this.position = size;
  }

  Path file() {
    return file;
  }

  long forces() {
    return forces;
  }

  long bytes() {
    return bytes;
  }

  /** Adds one record, starting a new segment first when the open one is full. */
  void append(long sequence, byte[] payload) throws IOException {
    if (position + buffer.position() >= segmentBytes && holdsRecords()) {
      roll(sequence);
    }
    int frame = Segments.FRAME_HEADER_BYTES + payload.length;
    if (buffer.remaining() < frame) {
      flush();
    }
    int at = buffer.position();
    buffer.putInt(payload.length).putInt(0).putLong(sequence).put(payload);
    for (int i = 7, s = 0; i >= 0; i--, s += 8) {
      sequenceBytes[i] = (byte) (sequence >>> s);
    }
    crc.reset();
    crc.update(sequenceBytes);
    crc.update(payload);
    buffer.putInt(at + 4, (int) crc.getValue());
    bytes += frame;
  }

  /** Makes everything appended so far durable. */
  void sync() throws IOException {
    flush();
    if (unforced) {
      // fdatasync on Linux: it also flushes the file size an append changes, which is all
      // reading the records back needs.
      force(false);
      unforced = false;
    }
  }

  /**
   * Closes the open segment and starts one whose first record will be {@code nextSequence};
   * does nothing when the open segment holds no records yet.
   */
  void roll(long nextSequence) throws IOException {
    sync();
    if (!holdsRecords()) {
      return;
    }
    // The full segment is forced before the next one exists, so after a crash only the last
    // segment can have a torn tail.
    channel.close();
    Path next = folder.resolve(Segments.fileName(nextSequence));
    FileChannel created = StoreFiles.open(next, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.READ, StandardOpenOption.WRITE);
    channel = created;
    file = next;
    Segments.writeFully(created, Segments.header(nextSequence), 0);
    force(true);
    Segments.fsyncFolder(folder);
    position = Segments.HEADER_BYTES;
    onNewSegment.accept(nextSequence, next);
  }

  /** Forces what is buffered and closes the segment. */
  void close() throws IOException {
    try {
      sync();
    } finally {
      channel.close();
    }
  }

  /** Closes the channel without writing: a simulated disk failure for tests. */
  void breakChannel() throws IOException {
    channel.close();
  }

  private boolean holdsRecords() {
    return position > Segments.HEADER_BYTES || buffer.position() > 0;
  }

  private void flush() throws IOException {
    if (buffer.position() == 0) {
      return;
    }
    buffer.flip();
    long start = position;
    while (buffer.hasRemaining()) {
      position += channel.write(buffer, position);
    }
    buffer.clear();
    unforced |= position > start;
  }

  private void force(boolean metadata) throws IOException {
    channel.force(metadata);
    forces++;
  }
}

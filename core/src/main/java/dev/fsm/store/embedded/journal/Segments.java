package dev.fsm.store.embedded.journal;

import dev.fsm.files.StoreFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/** Names, headers and frame layout of journal segment files. */
final class Segments {

  static final byte[] MAGIC = {'F', 'S', 'M', 'J'};
  static final byte VERSION = 1;
  /** Magic, version byte, first sequence. */
  static final int HEADER_BYTES = 4 + 1 + 8;
  /** Length, CRC32C, sequence. */
  static final int FRAME_HEADER_BYTES = 4 + 4 + 8;

  private static final Pattern NAME = Pattern.compile("journal-(\\d{20})\\.log");
  private static final boolean WINDOWS =
      System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");

  private Segments() {}

  static String fileName(long firstSequence) {
    return String.format(Locale.ROOT, "journal-%020d.log", firstSequence);
  }

  /** The first sequence a segment's name gives, or -1 when the name is not a segment's. */
  static long firstSequenceOf(Path file) {
    Matcher m = NAME.matcher(file.getFileName().toString());
    if (!m.matches()) {
      return -1;
    }
    try {
      long first = Long.parseLong(m.group(1));
      return first >= 1 ? first : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** The folder's segment files by first sequence. */
  static TreeMap<Long, Path> list(Path folder) throws IOException {
    TreeMap<Long, Path> segments = new TreeMap<>();
    try (Stream<Path> files = Files.list(folder)) {
      files.forEach(f -> {
        long first = firstSequenceOf(f);
        if (first > 0 && Files.isRegularFile(f)) {
          segments.put(first, f);
        }
      });
    }
    return segments;
  }

  static ByteBuffer header(long firstSequence) {
    ByteBuffer b = ByteBuffer.allocate(HEADER_BYTES);
    b.put(MAGIC).put(VERSION).putLong(firstSequence).flip();
    return b;
  }

  /** Makes a file creation, rename or deletion in the folder durable. */
  static void fsyncFolder(Path folder) throws IOException {
    try (FileChannel dir = FileChannel.open(folder, StandardOpenOption.READ)) {
      dir.force(true);
    } catch (IOException e) {
      // Windows cannot open a folder as a channel; NTFS journals its metadata itself.
      if (!WINDOWS) {
        throw e;
      }
    }
  }

  /**
   * Creates the folder's segment that starts at record {@code first}, holding only its header,
   * durably (file and folder entry).
   */
  static Path createEmpty(Path folder, long first) throws IOException {
    Path file = folder.resolve(fileName(first));
    try (FileChannel c = StoreFiles.open(file, StandardOpenOption.CREATE_NEW,
        StandardOpenOption.WRITE)) {
      writeFully(c, header(first), 0);
      c.force(true);
    }
    fsyncFolder(folder);
    return file;
  }

  /**
   * Whether the frame of {@code length} payload bytes at {@code at} in {@code b} carries the
   * CRC32C of its sequence and payload.
   */
  static boolean crcMatches(CRC32C crc, ByteBuffer b, int at, int length) {
    crc.reset();
    crc.update(b.slice(at + 8, 8 + length));
    return (int) crc.getValue() == b.getInt(at + 4);
  }

  static void writeFully(FileChannel channel, ByteBuffer data, long position) throws IOException {
    long at = position;
    while (data.hasRemaining()) {
      at += channel.write(data, at);
    }
  }

  /** "2 MiB", "64 KiB" or "1000 bytes". */
  static String size(long bytes) {
    if (bytes >= 1 << 20 && bytes % (1 << 20) == 0) {
      return (bytes >> 20) + " MiB";
    }
    if (bytes >= 1 << 10 && bytes % (1 << 10) == 0) {
      return (bytes >> 10) + " KiB";
    }
    return bytes + " bytes";
  }
}

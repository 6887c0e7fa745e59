package dev.fsm.store.embedded.journal;

import dev.fsm.FsmException;
import dev.fsm.files.StoreFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads every sound record a journal folder still holds, however damaged it is, without
 * changing it: for {@code fsm store repair}. Past bad bytes it looks for the next sound frame at
 * every offset, so records after damage are kept too.
 */
public final class JournalSalvage {

  /**
   * Bad bytes in a segment.
   *
   * @param file the segment
   * @param offset where the bad bytes start
   * @param length how many there are, up to the next sound frame or the end of the file
   * @param reason what is wrong at {@code offset}
   * @param claimed the payload the bytes at {@code offset} would carry if their length field is
   *     right (unverified), or null; for naming what was probably lost
   */
  public record Damage(Path file, long offset, long length, String reason, byte[] claimed) {}

  /** Receives what a salvage finds, in file order. */
  public interface Visitor {

    /** A sound record; sequences only ever grow. */
    void record(long sequence, byte[] payload) throws IOException;

    /** Bad bytes, including a frame repeating an earlier record. */
    void damaged(Damage damage) throws IOException;
  }

  /** What the folder held: its segments' first records, by name. */
  public record Result(TreeMap<Long, Path> segments, long lastSequence) {

    /** The first record the oldest segment's name says it holds; 1 when there is none. */
    public long firstSequence() {
      return segments.isEmpty() ? 1 : segments.firstKey();
    }
  }

  private JournalSalvage() {}

  /** Reads every segment in {@code folder} in order, passing what it finds to the visitor. */
  public static Result read(Path folder, int maxRecordBytes, Visitor visitor)
      throws IOException {
    TreeMap<Long, Path> segments = Files.isDirectory(folder) ? Segments.list(folder)
        : new TreeMap<>();
    long last = 0;
    for (Map.Entry<Long, Path> e : segments.entrySet()) {
      last = segment(e.getValue(), e.getKey(), maxRecordBytes, last, visitor);
    }
    return new Result(segments, last);
  }

  /**
   * Creates a journal folder whose one, empty segment starts at record {@code first}: what a
   * repair installs after writing everything it kept into a snapshot.
   */
  public static void createEmpty(Path folder, long first) throws IOException {
    StoreFiles.createFolder(folder);
    Segments.createEmpty(folder, first);
  }

  private static long segment(Path file, long first, int maxRecordBytes, long last,
      Visitor visitor) throws IOException {
    FrameScan scan = FrameScan.of(file, maxRecordBytes);
    long size = scan.size();
    String header = headerProblem(scan, file, first);
    if (header != null) {
      visitor.damaged(new Damage(file, 0, Math.min(size, Segments.HEADER_BYTES), header, null));
    }
    long at = Math.min(size, Segments.HEADER_BYTES);
    while (at < size) {
      FrameScan.Frame f = scan.at(at);
      if (f != null && f.sequence() > last) {
        visitor.record(f.sequence(), scan.payload(f));
        last = f.sequence();
        at = f.end();
        continue;
      }
      FrameScan.Frame next = scan.next(at + 1, last);
      long end = next == null ? size : next.offset();
      String reason = f != null ? "a repeat of record " + f.sequence() : reason(scan, at, end);
      visitor.damaged(new Damage(file, at, end - at, reason, scan.claimedPayload(at, end)));
      at = end;
    }
    return last;
  }

  private static String headerProblem(FrameScan scan, Path file, long first) {
    if (scan.size() < Segments.HEADER_BYTES) {
      return String.format(Locale.ROOT, "file ends inside the segment header (%d of %d bytes)",
          scan.size(), Segments.HEADER_BYTES);
    }
    byte[] header = scan.range(0, Segments.HEADER_BYTES);
    byte[] expected = Segments.header(first).array();
    if (Arrays.equals(header, expected)) {
      return null;
    }
    if (Arrays.equals(header, 0, 4, expected, 0, 4) && header[4] != expected[4]) {
      // Salvaging frames of a format this version does not know would keep garbage as records.
      throw new FsmException(file + " is in journal format " + (header[4] & 0xff) + ", but this"
          + " fsm reads format " + Segments.VERSION + ": another fsm version wrote it, so this"
          + " one will not repair the store. Use the fsm version that wrote it.");
    }
    long claimed = ByteBuffer.wrap(header).getLong(5);
    return Arrays.equals(header, 0, 5, expected, 0, 5)
        ? "the header says the segment starts at record " + claimed
        : "the segment header is damaged";
  }

  private static String reason(FrameScan scan, long at, long end) {
    if (end - at < Segments.FRAME_HEADER_BYTES) {
      return "file ends inside a record header";
    }
    if (scan.isZero(at, end)) {
      return "zero bytes where a record should start (space allocated but never written)";
    }
    return scan.claimedPayload(at, end) == null
        ? "a damaged record header, or a record length that runs past the sound bytes"
        : "CRC mismatch";
  }
}

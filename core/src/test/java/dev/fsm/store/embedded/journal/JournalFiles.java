package dev.fsm.store.embedded.journal;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Test helpers that look at and damage journal files directly. */
final class JournalFiles {

  private JournalFiles() {}

  static byte[] payload(long n, int length) {
    byte[] p = new byte[length];
    byte[] tag = ("r" + n + ";").getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i < length; i++) {
      p[i] = i < tag.length ? tag[i] : (byte) (n * 31 + i);
    }
    return p;
  }

  static List<Path> segments(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      return files.filter(f -> Segments.firstSequenceOf(f) > 0).sorted().toList();
    }
  }

  static Path lastSegment(Path folder) throws IOException {
    List<Path> all = segments(folder);
    return all.get(all.size() - 1);
  }

  /** The byte offset of every frame in a sound segment. */
  static List<Long> frameOffsets(Path segment) throws IOException {
    ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(segment));
    List<Long> offsets = new ArrayList<>();
    int at = Segments.HEADER_BYTES;
    while (at < bytes.limit()) {
      offsets.add((long) at);
      at += Segments.FRAME_HEADER_BYTES + bytes.getInt(at);
    }
    return offsets;
  }

  static void flip(Path file, long offset, int mask) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(offset);
      int b = f.read();
      f.seek(offset);
      f.write(b ^ mask);
    }
  }

  static void truncate(Path file, long size) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(size);
    }
  }

  static void copyFolder(Path from, Path to) throws IOException {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      files.forEach(f -> {
        try {
          Files.copy(f, to.resolve(f.getFileName()));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    }
  }

  /** Every durable record from a sequence on, as (sequence, payload). */
  static List<Entry> replay(Journal journal, long from) throws IOException {
    List<Entry> seen = new ArrayList<>();
    journal.replay(from, (sequence, record) -> seen.add(new Entry(sequence, record)));
    return seen;
  }

  record Entry(long sequence, byte[] record) {}
}

package dev.fsm.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * The bytes of a store folder's files, by part.
 *
 * @param journalBytes segments and snapshots under {@code journal/}
 * @param indexBytes the MapDB index, {@code index.db}
 * @param otherBytes everything else (lock, clean marker)
 */
public record DiskUse(long journalBytes, long indexBytes, long otherBytes) {

  /** All bytes of the folder. */
  public long total() {
    return journalBytes + indexBytes + otherBytes;
  }

  /** Measures the files of a store folder as they are now. */
  static DiskUse of(Path store) {
    long journal = 0;
    long index = 0;
    long other = 0;
    Path journalFolder = store.resolve("journal");
    try (Stream<Path> files = Files.walk(store)) {
      for (Path f : files.filter(Files::isRegularFile).toList()) {
        long size = Files.size(f);
        if (f.startsWith(journalFolder)) {
          journal += size;
        } else if (f.getFileName().toString().equals("index.db")) {
          index += size;
        } else {
          other += size;
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot measure " + store, e);
    }
    return new DiskUse(journal, index, other);
  }
}

package dev.fsm.store.embedded.journal;

import static dev.fsm.store.embedded.journal.JournalFiles.flip;
import static dev.fsm.store.embedded.journal.JournalFiles.payload;
import static dev.fsm.store.embedded.journal.JournalFiles.truncate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SnapshotFileTest {

  @TempDir
  Path dir;

  @Test
  void roundTripKeepsRecordsInOrder() throws IOException {
    List<byte[]> records = new ArrayList<>();
    for (int n = 0; n < 5_000; n++) {
      records.add(payload(n, n % 300));
    }
    records.add(payload(-2, 3 << 20)); // larger than the write buffer
    records.add(new byte[0]);
    Path file = dir.resolve("snapshot.fsms");
    SnapshotFile.Info written = SnapshotFile.write(file, 123_456, records.iterator());
    assertThat(written).isEqualTo(new SnapshotFile.Info(123_456, records.size()));

    List<byte[]> read = new ArrayList<>();
    SnapshotFile.Info info = SnapshotFile.read(file, read::add);
    assertThat(info).isEqualTo(written);
    assertThat(read).hasSize(records.size());
    for (int i = 0; i < records.size(); i++) {
      assertThat(read.get(i)).isEqualTo(records.get(i));
    }
    assertThat(Files.exists(dir.resolve("snapshot.fsms.tmp"))).isFalse();
  }

  /**
   * Sizes around the write buffer and the file system's blocks, written directly to disk where
   * the file system allows it and through the page cache in memory (tmpfs refuses direct I/O).
   */
  @Test
  void sizesAroundBlocksAndBuffersRoundTripWithAndWithoutDirectIo() throws IOException {
    List<Path> folders = new ArrayList<>(List.of(dir));
    Path shm = Path.of("/dev/shm");
    if (Files.isDirectory(shm) && Files.isWritable(shm)) {
      folders.add(Files.createTempDirectory(shm, "fsm-snapshot-test"));
    }
    int[] sizes = {0, 1, 4096 - 25 - 8 - 8, 4096 - 25 - 8 - 7, (1 << 20) - 25 - 8 - 8,
        (1 << 20) - 25 - 8 - 7, (1 << 20) + 4096, 3 << 20};
    try {
      for (Path folder : folders) {
        for (int size : sizes) {
          Path file = folder.resolve("snapshot-" + size);
          List<byte[]> records = List.of(payload(size, size), payload(7, 7));
          SnapshotFile.write(file, size, records.iterator());
          assertThat(Files.size(file)).as("%s: no padding left", file)
              .isEqualTo(25 + 8 + size + 8 + 7 + 8);
          List<byte[]> read = new ArrayList<>();
          assertThat(SnapshotFile.read(file, read::add))
              .isEqualTo(new SnapshotFile.Info(size, 2));
          assertThat(read.get(0)).isEqualTo(records.get(0));
          assertThat(read.get(1)).isEqualTo(records.get(1));
          Files.delete(file);
        }
      }
    } finally {
      if (folders.size() > 1) {
        Files.deleteIfExists(folders.get(1));
      }
    }
  }

  @Test
  void anEmptySnapshotIsValid() throws IOException {
    Path file = dir.resolve("s");
    SnapshotFile.write(file, 0, List.<byte[]>of().iterator());
    assertThat(SnapshotFile.read(file, r -> { }).records()).isZero();
  }

  @Test
  void everyFlippedByteIsCaughtNamingTheFile() throws IOException {
    Path original = dir.resolve("original");
    SnapshotFile.write(original, 77, smallRecords());
    long size = Files.size(original);
    for (long at = 0; at < size; at++) {
      Path file = dir.resolve("flipped-" + at);
      Files.copy(original, file);
      flip(file, at, 0x04);
      assertThatThrownBy(() -> SnapshotFile.read(file, r -> { })).as("flip at %d", at)
          .isInstanceOf(FsmException.class)
          .hasMessageStartingWith("snapshot " + file + " ");
    }
  }

  @Test
  void everyTruncationIsCaughtNamingTheFile() throws IOException {
    Path original = dir.resolve("original");
    SnapshotFile.write(original, 77, smallRecords());
    long size = Files.size(original);
    for (long length = 0; length < size; length++) {
      Path file = dir.resolve("cut-" + length);
      Files.copy(original, file);
      truncate(file, length);
      assertThatThrownBy(() -> SnapshotFile.read(file, r -> { })).as("cut to %d", length)
          .isInstanceOf(FsmException.class)
          .hasMessageContaining(file.toString());
    }
  }

  @Test
  void specificDamageGetsASpecificMessage() throws IOException {
    Path file = dir.resolve("s");
    SnapshotFile.write(file, 5, smallRecords());
    flip(file, SnapshotFile.HEADER_BYTES + 8 + 1, 0x01);
    assertThatThrownBy(() -> SnapshotFile.read(file, r -> { }))
        .hasMessageContaining("damaged record 1 at byte " + SnapshotFile.HEADER_BYTES)
        .hasMessageContaining("restore the store folder from a backup");
    Files.write(file, "not a snapshot at all, just a line of text that is long enough".getBytes());
    assertThatThrownBy(() -> SnapshotFile.read(file, r -> { }))
        .hasMessageContaining("it is not an fsm snapshot");
  }

  @Test
  void aLeftoverTmpIsOverwrittenAndAnOldSnapshotReplacedWhole() throws IOException {
    Path file = dir.resolve("snap");
    Path tmp = dir.resolve("snap.tmp");
    Files.write(tmp, new byte[100_000]);
    SnapshotFile.write(file, 1, List.of(payload(1, 10)).iterator());
    assertThat(Files.exists(tmp)).isFalse();

    Files.write(tmp, "half-written".getBytes());
    SnapshotFile.write(file, 9, smallRecords());
    assertThat(SnapshotFile.read(file, r -> { })).isEqualTo(new SnapshotFile.Info(9, 5));
    assertThat(Files.exists(tmp)).isFalse();
  }

  @Test
  void aFailedWriteLeavesTheOldSnapshotAndNoTmp() throws IOException {
    Path file = dir.resolve("snap");
    SnapshotFile.write(file, 3, smallRecords());
    Iterator<byte[]> failing = Stream.iterate(0, i -> i + 1).map(i -> {
      if (i == 1_000) {
        throw new IllegalStateException("index read failed");
      }
      return payload(i, 50);
    }).iterator();
    assertThatThrownBy(() -> SnapshotFile.write(file, 4, failing))
        .hasMessageContaining("index read failed");
    assertThat(Files.exists(dir.resolve("snap.tmp"))).isFalse();
    assertThat(SnapshotFile.read(file, r -> { })).isEqualTo(new SnapshotFile.Info(3, 5));
  }

  private static Iterator<byte[]> smallRecords() {
    List<byte[]> records = new ArrayList<>();
    for (int n = 0; n < 5; n++) {
      records.add(payload(n, 6 + n));
    }
    return records.iterator();
  }
}

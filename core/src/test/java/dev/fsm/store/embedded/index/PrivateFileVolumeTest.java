package dev.fsm.store.embedded.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mapdb.BTreeMap;
import org.mapdb.DB;
import org.mapdb.DBMaker;
import org.mapdb.Serializer;

/**
 * The copy-on-write index volume: changes stay out of the file until a budget or the close
 * writes them, and what MapDB reads back is what it wrote, however often slices were written out
 * and mapped again under it.
 */
class PrivateFileVolumeTest {

  private static final int MIB = 1 << 20;

  @TempDir Path dir;

  @Test
  void changesReachTheFileOnlyWhenWrittenOut() throws IOException {
    Path file = dir.resolve("v.db");
    PrivateFileVolume v = PrivateFileVolume.open(file, 64 * MIB);
    v.ensureAvailable(3L * MIB);
    v.putLong(8, 0x0102030405060708L);
    v.putData(MIB + 100, new byte[] {1, 2, 3}, 0, 3);
    assertThat(v.getLong(8)).isEqualTo(0x0102030405060708L);
    assertThat(v.dirtyBytes()).isEqualTo(2 * 4096);
    assertThat(fileLong(file, 8)).as("not in the file yet").isZero();

    v.close();
    assertThat(fileLong(file, 8)).isEqualTo(0x0102030405060708L);
    assertThat(Files.size(file)).isEqualTo(3L * MIB);
    PrivateFileVolume again = PrivateFileVolume.open(file, 64 * MIB);
    byte[] three = new byte[3];
    again.getData(MIB + 100, three, 0, 3);
    assertThat(three).containsExactly(1, 2, 3);
    again.close();
  }

  @Test
  void overTheBudgetTheSlicesChangedLongestAgoAreWrittenOut() throws IOException {
    Path file = dir.resolve("v.db");
    PrivateFileVolume v = PrivateFileVolume.open(file, 8 * 4096);
    v.ensureAvailable(12L * MIB);
    for (int slice = 0; slice < 12; slice++) {
      v.putLong((long) slice * MIB, slice + 1);
      assertThat(v.dirtyBytes()).isLessThanOrEqualTo(8 * 4096);
    }
    assertThat(v.pagesWritten()).isGreaterThanOrEqualTo(4);
    assertThat(fileLong(file, 0)).as("the oldest change, written out").isEqualTo(1);
    assertThat(fileLong(file, 11L * MIB)).as("the newest, still in memory").isZero();
    v.settle();
    for (int slice = 0; slice < 12; slice++) {
      assertThat(v.getLong((long) slice * MIB)).isEqualTo(slice + 1);
    }
    v.close();
  }

  @Test
  void dataAcrossASliceBoundaryReadsBackWhole() {
    PrivateFileVolume v = PrivateFileVolume.open(dir.resolve("v.db"), 64 * MIB);
    v.ensureAvailable(2L * MIB);
    byte[] data = new byte[1000];
    new Random(1).nextBytes(data);
    v.putDataOverlap(MIB - 500, data, 0, data.length);
    byte[] back = new byte[1000];
    v.getData(MIB - 500, back, 0, back.length);
    assertThat(back).isEqualTo(data);
    v.clear(MIB - 10, MIB + 10);
    v.getData(MIB - 500, back, 0, back.length);
    assertThat(back[495]).isZero();
    assertThat(back[509]).isZero();
    assertThat(back[510]).isEqualTo(data[510]);
    v.close();
  }

  @Test
  void aMapDbTreeSurvivesWritesOutAndAReopen() {
    Path file = dir.resolve("tree.db");
    TreeMap<Long, String> expected = new TreeMap<>();
    Random random = new Random(7);
    // A budget of 64 pages: the tree's slices are written out and mapped again over and over.
    PrivateFileVolume v = PrivateFileVolume.open(file, 64 * 4096);
    DB db = DBMaker.volumeDB(v, false).concurrencyDisable().make();
    BTreeMap<Long, String> map = db.treeMap("m", Serializer.LONG, Serializer.STRING).create();
    for (int i = 0; i < 60_000; i++) {
      long key = random.nextInt(20_000);
      if (random.nextInt(5) == 0) {
        map.remove(key);
        expected.remove(key);
      } else {
        String value = "v" + i + "-".repeat(random.nextInt(200));
        map.put(key, value);
        expected.put(key, value);
      }
      if (i % 1000 == 0) {
        v.settle();
      }
    }
    assertThat(v.pagesWritten()).as("written out along the way").isGreaterThan(1000);
    assertThat(map).isEqualTo(expected);
    db.close();

    PrivateFileVolume reopened = PrivateFileVolume.open(file, 64 * 4096);
    DB again = DBMaker.volumeDB(reopened, true).concurrencyDisable().make();
    assertThat(again.treeMap("m", Serializer.LONG, Serializer.STRING).open())
        .isEqualTo(expected);
    again.close();
  }

  private static long fileLong(Path file, long at) throws IOException {
    try (FileChannel c = FileChannel.open(file)) {
      ByteBuffer b = ByteBuffer.allocate(8);
      c.read(b, at);
      return b.flip().getLong();
    }
  }
}

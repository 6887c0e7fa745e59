package dev.fsm.store.embedded.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.mapdb.DBException;
import org.mapdb.DataInput2;
import org.mapdb.DataOutput2;
import org.mapdb.Serializer;
import org.mapdb.serializer.GroupSerializer;

/** The key serializer behaves exactly as MapDB's own byte-array serializer, op for op. */
class KeySerializerTest {

  private static final GroupSerializer<byte[]> MAPDB = Serializer.BYTE_ARRAY;
  private static final KeySerializer OURS = KeySerializer.INSTANCE;

  @Test
  void everyNodeOperationMatchesMapDbsSerializer() throws IOException {
    Random random = new Random(11);
    for (int round = 0; round < 2_000; round++) {
      List<byte[]> start = sortedKeys(random, random.nextInt(12));
      Object theirs = MAPDB.valueArrayFromArray(start.toArray());
      Object ours = OURS.valueArrayFromArray(start.toArray());
      for (int step = 0; step < 20; step++) {
        int size = MAPDB.valueArraySize(theirs);
        byte[] key = key(random);
        switch (random.nextInt(6)) {
          case 0 -> {
            int pos = random.nextInt(size + 1);
            theirs = MAPDB.valueArrayPut(theirs, pos, key);
            ours = OURS.valueArrayPut(ours, pos, key);
          }
          case 1 -> {
            if (size > 0) {
              int pos = random.nextInt(size);
              theirs = MAPDB.valueArrayUpdateVal(theirs, pos, key);
              ours = OURS.valueArrayUpdateVal(ours, pos, key);
            }
          }
          case 2 -> {
            if (size > 0) {
              int pos = 1 + random.nextInt(size);
              theirs = MAPDB.valueArrayDeleteValue(theirs, pos);
              ours = OURS.valueArrayDeleteValue(ours, pos);
            }
          }
          case 3 -> {
            int from = random.nextInt(size + 1);
            int to = from + random.nextInt(size - from + 1);
            theirs = MAPDB.valueArrayCopyOfRange(theirs, from, to);
            ours = OURS.valueArrayCopyOfRange(ours, from, to);
          }
          case 4 -> {
            DataOutput2 out = new DataOutput2();
            OURS.valueArraySerialize(out, ours);
            ours = OURS.valueArrayDeserialize(new DataInput2.ByteArray(out.copyBytes()), size);
          }
          default -> {
            // A search only: checked below for every key.
          }
        }
        assertSame(theirs, ours);
      }
    }
  }

  @Test
  void searchesMatchWithAndWithoutAComparator() {
    Random random = new Random(12);
    for (int round = 0; round < 2_000; round++) {
      List<byte[]> keys = sortedKeys(random, random.nextInt(20));
      Object theirs = MAPDB.valueArrayFromArray(keys.toArray());
      Object ours = OURS.valueArrayFromArray(keys.toArray());
      List<byte[]> probes = new ArrayList<>(keys);
      for (int i = 0; i < 10; i++) {
        probes.add(key(random));
      }
      for (byte[] probe : probes) {
        assertThat(OURS.valueArraySearch(ours, probe))
            .isEqualTo(MAPDB.valueArraySearch(theirs, probe));
        assertThat(OURS.valueArraySearch(ours, probe, OURS))
            .isEqualTo(MAPDB.valueArraySearch(theirs, probe, MAPDB));
        Comparator<byte[]> unsigned = Arrays::compareUnsigned;
        assertThat(OURS.valueArraySearch(ours, probe, unsigned))
            .isEqualTo(MAPDB.valueArraySearch(theirs, probe, MAPDB));
      }
    }
  }

  @Test
  void aNodeStoresWhatEachKeyAddsToTheOneBefore() throws IOException {
    List<byte[]> ids = new ArrayList<>();
    for (int i = 0; i < 64; i++) {
      ids.add(String.format("01M8925VGKVD9PHN70CMZWB%03d", i).getBytes(StandardCharsets.UTF_8));
    }
    Object keys = OURS.valueArrayFromArray(ids.toArray());
    DataOutput2 out = new DataOutput2();
    OURS.valueArraySerialize(out, keys);
    assertThat(out.pos).isLessThan(64 * 26 / 4);
    Object read = OURS.valueArrayDeserialize(new DataInput2.ByteArray(out.copyBytes()), 64);
    assertThat(OURS.valueArrayToArray(read)).isEqualTo(ids.toArray());
  }

  @Test
  void impossibleKeyLengthsAreRefusedAsDamage() throws IOException {
    // The second key claims to share 9 bytes with a first key of 2.
    DataOutput2 sharesTooMuch = new DataOutput2();
    sharesTooMuch.packInt(0);
    sharesTooMuch.packInt(2);
    sharesTooMuch.packInt(9);
    sharesTooMuch.packInt(1);
    sharesTooMuch.write(new byte[] {'a', 'b', 'c'});
    assertThatThrownBy(() -> OURS.valueArrayDeserialize(
        new DataInput2.ByteArray(sharesTooMuch.copyBytes()), 2))
        .isInstanceOf(DBException.DataCorruption.class).hasMessageContaining("key 1 of 2");
    // A key as long as no node record can be: refused before an array is made for it.
    DataOutput2 huge = new DataOutput2();
    huge.packInt(0);
    huge.packInt(Integer.MAX_VALUE);
    assertThatThrownBy(() -> OURS.valueArrayDeserialize(
        new DataInput2.ByteArray(huge.copyBytes()), 1))
        .isInstanceOf(DBException.DataCorruption.class).hasMessageContaining("impossible");
  }

  private static void assertSame(Object theirs, Object ours) {
    int size = MAPDB.valueArraySize(theirs);
    assertThat(OURS.valueArraySize(ours)).isEqualTo(size);
    for (int i = 0; i < size; i++) {
      assertThat(OURS.valueArrayGet(ours, i)).isEqualTo(MAPDB.valueArrayGet(theirs, i));
    }
    assertThat(OURS.valueArrayToArray(ours)).isEqualTo(MAPDB.valueArrayToArray(theirs));
  }

  private static List<byte[]> sortedKeys(Random random, int n) {
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      keys.add(key(random));
    }
    keys.sort(Arrays::compareUnsigned);
    return keys;
  }

  private static byte[] key(Random random) {
    byte[] key = new byte[random.nextInt(6)];
    for (int i = 0; i < key.length; i++) {
      key[i] = (byte) (random.nextInt(4) * 0x55);
    }
    return key;
  }
}

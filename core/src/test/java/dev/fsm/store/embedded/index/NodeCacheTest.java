package dev.fsm.store.embedded.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mapdb.BTreeMap;
import org.mapdb.DB;
import org.mapdb.Serializer;

/**
 * Decoded nodes written back only when they leave the cache: trees read back what was written
 * while nodes come and go, and the file holds all of it after a close, as MapDB alone writes it.
 */
class NodeCacheTest {

  @TempDir Path dir;

  private static byte[] key(int n) {
    return String.format("k%07d", n).getBytes(StandardCharsets.UTF_8);
  }

  private static DB open(Path file, int capacity) {
    return NodeCache.db(PrivateFileVolume.open(file), capacity);
  }

  @Test
  void treesOverASmallCacheMatchASortedMapBeforeAndAfterAReopen() {
    Path file = dir.resolve("i.db");
    TreeMap<String, byte[]> expectedMap = new TreeMap<>();
    TreeSet<String> expectedSet = new TreeSet<>();
    Random random = new Random(7);
    DB db = open(file, 16);
    BTreeMap<byte[], byte[]> map = IndexLayout.tasksMaker(db).create();
    NavigableSet<byte[]> set = db.treeSet("set", KeySerializer.INSTANCE).maxNodeSize(8).create();
    BTreeMap<byte[], Long> inline = db.treeMap("inline", KeySerializer.INSTANCE, Serializer.LONG)
        .maxNodeSize(8).create();
    TreeMap<String, Long> expectedInline = new TreeMap<>();
    for (int i = 0; i < 20_000; i++) {
      int n = random.nextInt(2_500);
      String k = new String(key(n), StandardCharsets.UTF_8);
      if (random.nextInt(3) == 0) {
        map.remove(key(n));
        expectedMap.remove(k);
        set.remove(key(n));
        expectedSet.remove(k);
        inline.remove(key(n));
        expectedInline.remove(k);
      } else {
        byte[] value = new byte[random.nextInt(40)];
        random.nextBytes(value);
        map.put(key(n), value);
        expectedMap.put(k, value);
        set.add(key(n));
        expectedSet.add(k);
        inline.put(key(n), (long) i);
        expectedInline.put(k, (long) i);
      }
    }
    assertSame(map, set, inline, expectedMap, expectedSet, expectedInline);
    db.close();

    DB again = open(file, 16);
    assertSame(IndexLayout.tasksMaker(again).open(),
        again.treeSet("set", KeySerializer.INSTANCE).maxNodeSize(8).open(),
        again.treeMap("inline", KeySerializer.INSTANCE, Serializer.LONG).maxNodeSize(8).open(),
        expectedMap, expectedSet, expectedInline);
    again.close();
  }

  private static void assertSame(BTreeMap<byte[], byte[]> map, NavigableSet<byte[]> set,
      BTreeMap<byte[], Long> inline, TreeMap<String, byte[]> expectedMap,
      TreeSet<String> expectedSet, TreeMap<String, Long> expectedInline) {
    assertThat(map.sizeLong()).isEqualTo(expectedMap.size());
    TreeMap<String, byte[]> actual = new TreeMap<>();
    for (Map.Entry<byte[], byte[]> e : map.entrySet()) {
      actual.put(new String(e.getKey(), StandardCharsets.UTF_8), e.getValue());
    }
    assertThat(actual.keySet()).containsExactlyElementsOf(expectedMap.keySet());
    expectedMap.forEach((k, v) -> assertThat(actual.get(k)).as(k).isEqualTo(v));
    TreeSet<String> members = new TreeSet<>();
    set.forEach(b -> members.add(new String(b, StandardCharsets.UTF_8)));
    assertThat(members).containsExactlyElementsOf(expectedSet);
    TreeMap<String, Long> inlineActual = new TreeMap<>();
    inline.forEach((k, v) -> inlineActual.put(new String(k, StandardCharsets.UTF_8), v));
    assertThat(inlineActual).containsExactlyEntriesOf(expectedInline);
  }
}

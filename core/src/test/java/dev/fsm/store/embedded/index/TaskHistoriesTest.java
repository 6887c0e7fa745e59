package dev.fsm.store.embedded.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.store.embedded.event.TransitionCodec;
import dev.fsm.task.Transition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Chunked histories behave as one entry per place would, and chunk bytes are canonical. */
class TaskHistoriesTest {

  private final TreeMap<byte[], byte[]> chunks = new TreeMap<>(Arrays::compareUnsigned);
  private final TaskHistories histories = new TaskHistories(chunks);

  private static Transition entry(int n, String reason) {
    return new Transition(Instant.ofEpochMilli(1_700_000_000_000L + n).plusNanos(n % 1000),
        "s" + n, "e", "s" + (n + 1), n, n % 3, "runner-" + n, reason);
  }

  @Test
  void entriesPutInPlaceOrderReadBackAcrossChunks() {
    List<Transition> expected = new ArrayList<>();
    for (int place = 0; place < 3 * TaskHistories.CHUNK + 5; place++) {
      Transition t = entry(place, "");
      histories.put("task-1", place, t);
      expected.add(t);
      assertThat(histories.tail("task-1").length()).isEqualTo(place + 1);
    }
    histories.put("task-10", 0, entry(99, "other task"));
    histories.put("task", 0, entry(98, "prefix of the other"));
    assertThat(histories.of("task-1")).isEqualTo(expected);
    assertThat(histories.of("task-10")).containsExactly(entry(99, "other task"));
    assertThat(histories.of("task")).containsExactly(entry(98, "prefix of the other"));
    assertThat(histories.of("nothing")).isEmpty();
    assertThat(histories.tail("nothing").length()).isZero();
    assertThat(chunks).hasSize(4 + 2);
  }

  @Test
  void manyHistoriesAtOnceEqualOneByOneWhetherTheirIdsLieTogetherOrApart() {
    Random random = new Random(5);
    List<String> all = new ArrayList<>();
    for (int n = 0; n < 2_000; n++) {
      String id = String.format("t-%05d", n);
      all.add(id);
      int length = n % 7 == 0 ? 0 : random.nextInt(2 * TaskHistories.CHUNK + 3);
      for (int place = 0; place < length; place++) {
        histories.put(id, place, entry(n * 100 + place, ""));
      }
      histories.put(id + "\u0000x", 0, entry(n, "an id that extends this one"));
    }
    List<List<String>> asks = List.of(
        newestFirst(all.subList(1_200, 1_712)),
        all.subList(0, 5),
        everyNth(all, 97),
        List.of("t-00400", "nobody", "t-00401", "t-00399", "t-", "t-00402", "t-00403",
            "zzz", "t-00404"));
    for (List<String> ids : asks) {
      Map<String, List<Transition>> read = histories.of(ids);
      assertThat(read.keySet()).as("keyed as asked").containsExactlyElementsOf(ids);
      for (String id : ids) {
        assertThat(read.get(id)).as(id).isEqualTo(histories.of(id));
      }
    }
  }

  private static List<String> newestFirst(List<String> ids) {
    List<String> reversed = new ArrayList<>(ids);
    Collections.reverse(reversed);
    return reversed;
  }

  private static List<String> everyNth(List<String> all, int n) {
    List<String> some = new ArrayList<>();
    for (int i = 0; i < all.size(); i += n) {
      some.add(all.get(i));
    }
    return some;
  }

  @Test
  void putsInAnyOrderAndAgainEqualOnePutPerPlace() {
    Random random = new Random(11);
    for (int round = 0; round < 200; round++) {
      chunks.clear();
      TreeMap<Integer, Transition> model = new TreeMap<>();
      for (int n = 0; n < 80; n++) {
        int place = random.nextInt(40);
        Transition t = entry(random.nextInt(1000), "x".repeat(random.nextInt(300)));
        histories.put("t", place, t);
        model.put(place, t);
        assertThat(histories.tail("t").length()).isEqualTo(model.lastKey() + 1);
      }
      assertThat(histories.of("t")).isEqualTo(new ArrayList<>(model.values()));
      TreeMap<byte[], byte[]> rebuilt = new TreeMap<>(Arrays::compareUnsigned);
      TaskHistories again = new TaskHistories(rebuilt);
      model.forEach((place, t) -> again.put("t", place, t));
      assertSameBytes(rebuilt, chunks);
    }
  }

  @Test
  void putsGivenTheKnownTailEqualPutsThatReadTheChunkAndGiveTheTailAReadFinds() {
    Random random = new Random(17);
    TreeMap<byte[], byte[]> read = new TreeMap<>(Arrays::compareUnsigned);
    TaskHistories reading = new TaskHistories(read);
    TaskHistories.Tail tail = histories.tail("t");
    for (int n = 0; n < 5 * TaskHistories.CHUNK; n++) {
      // Mostly the next place, as a runner's outcome; now and then an earlier one, as a replay.
      int length = tail.length();
      int place = length > 0 && random.nextInt(4) == 0 ? random.nextInt(length) : length;
      Transition t = entry(random.nextInt(1000), "y".repeat(random.nextInt(80)));
      tail = histories.put("t", place, t, tail);
      reading.put("t", place, t);
      if (random.nextInt(3) == 0) {
        // A task's last chunk may wait on the heap until a flush or a read of its history.
        histories.flush();
        assertSameBytes(chunks, read);
      }
      assertThat(tail.length()).isEqualTo(reading.tail("t").length());
      assertThat(tail.chunk()).isEqualTo(reading.tail("t").chunk());
    }
    assertThat(histories.put("t", 0, entry(1, ""), null)).as("no tail known before").isNull();
  }

  @Test
  void lastChunksWaitingOnTheHeapReadAsWrittenAndReachTheMapWhenFullEvictedOrFlushed() {
    TreeMap<byte[], byte[]> read = new TreeMap<>(Arrays::compareUnsigned);
    TaskHistories reading = new TaskHistories(read);
    int tasks = WaitingChunks.TASKS + 100;
    TaskHistories.Tail[] tails = new TaskHistories.Tail[tasks];
    Random random = new Random(3);
    for (int round = 0; round < 3 * TaskHistories.CHUNK; round++) {
      for (int n = 0; n < tasks; n += 1 + random.nextInt(3)) {
        String id = "t-" + n;
        int place = tails[n] == null ? 0 : tails[n].length();
        Transition t = entry(round * 7 + n, "");
        tails[n] = histories.put(id, place, t, tails[n] == null ? new TaskHistories.Tail(0, null)
            : tails[n]);
        reading.put(id, place, t);
      }
    }
    // The most recently changed tasks' chunks wait; the rest were written as they filled or
    // as newer tasks pushed them out.
    assertThat(chunks.size()).isLessThan(read.size());
    for (int n = 0; n < tasks; n += 97) {
      assertThat(histories.of("t-" + n)).isEqualTo(reading.of("t-" + n));
    }
    histories.flush();
    assertSameBytes(chunks, read);
    histories.put("t-1", tails[1].length(), entry(5, "then purged"), tails[1]);
    histories.remove("t-1");
    histories.flush();
    assertThat(histories.of("t-1")).isEmpty();
    assertThat(chunks.keySet()).noneMatch(k -> IndexKeys.startsWith(k, IndexKeys.historyOf("t-1")));
  }

  @Test
  void chunksPastTheBytesAllowedToWaitAreWrittenAtOnce() {
    String reason = "r".repeat((int) WaitingChunks.BYTES);
    histories.put("big", 0, entry(1, reason), new TaskHistories.Tail(0, null));
    assertThat(chunks).hasSize(1);
    histories.put("small", 0, entry(2, ""), new TaskHistories.Tail(0, null));
    assertThat(chunks).hasSize(1);
  }

  @Test
  void wholeHistoryChunksMatchEntriesPutOneByOne() {
    for (int size : new int[] {0, 1, TaskHistories.CHUNK - 1, TaskHistories.CHUNK,
        TaskHistories.CHUNK + 1, 5 * TaskHistories.CHUNK}) {
      chunks.clear();
      List<Transition> history = new ArrayList<>();
      for (int place = 0; place < size; place++) {
        history.add(entry(place, "r".repeat(place * 7)));
        histories.put("id", place, history.get(place));
      }
      TreeMap<byte[], byte[]> loaded = new TreeMap<>(Arrays::compareUnsigned);
      TreeMap<Integer, byte[]> byPlace = new TreeMap<>();
      for (int place = 0; place < size; place++) {
        byPlace.put(place, TransitionCodec.encode(history.get(place)));
      }
      TaskHistories.chunksOf("id", byPlace, loaded::put);
      assertSameBytes(loaded, chunks);
      assertThat(new TaskHistories(loaded).of("id")).isEqualTo(history);
    }
  }

  @Test
  void aDamagedChunkIsRefusedNotMisread() {
    histories.put("id", 0, entry(1, ""));
    histories.put("id", 1, entry(2, ""));
    Map.Entry<byte[], byte[]> only = chunks.firstEntry();
    byte[] good = only.getValue();
    int refused = 0;
    for (int cut = 0; cut < good.length; cut++) {
      chunks.put(only.getKey(), Arrays.copyOf(good, cut));
      try {
        // Cut at the end of the first entry, a chunk is whole: what store check is for.
        assertThat(histories.of("id")).containsExactly(entry(1, ""));
      } catch (IllegalArgumentException e) {
        refused++;
      }
    }
    assertThat(refused).isEqualTo(good.length - 1);
    byte[] swapped = good.clone();
    swapped[0] = (byte) TaskHistories.CHUNK;
    chunks.put(only.getKey(), swapped);
    assertThatThrownBy(histories::check).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("history chunk");
  }

  private static void assertSameBytes(TreeMap<byte[], byte[]> a, TreeMap<byte[], byte[]> b) {
    assertThat(a.keySet()).usingElementComparator(Arrays::compareUnsigned)
        .containsExactlyElementsOf(b.keySet());
    for (byte[] key : a.keySet()) {
      assertThat(a.get(key)).isEqualTo(b.get(key));
    }
  }
}

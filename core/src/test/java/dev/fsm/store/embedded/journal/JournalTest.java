package dev.fsm.store.embedded.journal;

import static dev.fsm.store.embedded.journal.JournalFiles.payload;
import static dev.fsm.store.embedded.journal.JournalFiles.replay;
import static dev.fsm.store.embedded.journal.JournalFiles.segments;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.store.embedded.journal.JournalFiles.Entry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalTest {

  private static final JournalOptions SMALL = JournalOptions.defaults().segmentBytes(1024);

  @TempDir
  Path dir;

  @Test
  void freshFolderStartsAtOne() throws IOException {
    try (Journal j = Journal.open(dir.resolve("j"), JournalOptions.defaults())) {
      assertThat(j.lastSequence()).isZero();
      assertThat(j.recovery().clean()).isTrue();
      assertThat(j.recovery().firstSequence()).isEqualTo(1);
      assertThat(replay(j, 1)).isEmpty();
      assertThat(j.append(new byte[0]).join()).isEqualTo(1);
      assertThat(replay(j, 1)).singleElement().satisfies(e -> assertThat(e.record()).isEmpty());
    }
    assertThat(segments(dir.resolve("j"))).extracting(p -> p.getFileName().toString())
        .containsExactly("journal-00000000000000000001.log");
  }

  @Test
  void roundTripAcrossSegmentsAndReopenContinuesNumbering() throws IOException {
    List<byte[]> written = new ArrayList<>();
    try (Journal j = Journal.open(dir, SMALL)) {
      for (int n = 1; n <= 200; n++) {
        byte[] p = payload(n, n % 101);
        written.add(p);
        assertThat(j.append(p).join()).isEqualTo(n);
      }
      assertThat(j.lastSequence()).isEqualTo(200);
      assertThat(j.stats().records()).isEqualTo(200);
      assertReplays(j, 1, written);
      assertReplays(j, 137, written);
    }
    List<Path> files = segments(dir);
    assertThat(files).hasSizeGreaterThan(5);
    long expectedFirst = 1;
    for (Path f : files) {
      assertThat(Segments.firstSequenceOf(f)).isEqualTo(expectedFirst);
      expectedFirst += JournalFiles.frameOffsets(f).size();
      assertThat(Files.size(f)).isLessThan(1024 + 16 + 100);
    }

    try (Journal j = Journal.open(dir, SMALL)) {
      assertThat(j.recovery().clean()).isTrue();
      assertThat(j.recovery().segments()).isEqualTo(files.size());
      assertThat(j.recovery().lastSequence()).isEqualTo(200);
      assertThat(j.lastSequence()).isEqualTo(200);
      byte[] p = payload(201, 50);
      written.add(p);
      assertThat(j.append(p).join()).isEqualTo(201);
      assertReplays(j, 1, written);
    }
    try (Journal j = Journal.open(dir, SMALL)) {
      assertReplays(j, 199, written);
    }
  }

  @Test
  void appendAllGivesConsecutiveSequencesAmidOtherAppends() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try (Journal j = Journal.open(dir, SMALL)) {
      List<Future<List<Batch>>> results = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        results.add(pool.submit(() -> {
          List<CompletableFuture<Long>> firsts = new ArrayList<>();
          for (int b = 0; b < 50; b++) {
            firsts.add(j.appendAll(batch(thread, b)));
            j.append(payload(-1, 10));
          }
          List<Batch> batches = new ArrayList<>();
          for (int b = 0; b < 50; b++) {
            batches.add(new Batch(firsts.get(b).join(), thread, b));
          }
          return batches;
        }));
      }
      List<Batch> batches = new ArrayList<>();
      for (Future<List<Batch>> r : results) {
        batches.addAll(r.get(60, TimeUnit.SECONDS));
      }
      j.append(new byte[1]).join();
      List<Entry> all = replay(j, 1);
      long total = 1;
      for (Batch b : batches) {
        total += batch(b.thread(), b.index()).size() + 1;
      }
      assertThat(all).extracting(Entry::sequence).containsExactlyElementsOf(sequences(1, total));
      for (Batch b : batches) {
        List<byte[]> expected = batch(b.thread(), b.index());
        for (int k = 0; k < expected.size(); k++) {
          assertThat(all.get((int) (b.first() + k - 1)).record()).isEqualTo(expected.get(k));
        }
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private record Batch(long first, int thread, int index) {}

  private static List<byte[]> batch(int thread, int index) {
    List<byte[]> records = new ArrayList<>();
    for (int k = 0; k <= index % 7; k++) {
      records.add(payload(thread * 1_000_000L + index * 100 + k, 30));
    }
    return records;
  }

  @Test
  void concurrentAppendsAreDurableOnceInOrderAndGroupCommitted() throws Exception {
    int threads = 8;
    int each = 2_000;
    Path folder = dir.resolve("j");
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    JournalStats stats;
    try (Journal j = Journal.open(folder, JournalOptions.defaults().segmentBytes(64 << 10))) {
      List<Future<long[]>> perThread = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        perThread.add(pool.submit(() -> {
          start.await();
          List<CompletableFuture<Long>> futures = new ArrayList<>(each);
          for (int i = 0; i < each; i++) {
            futures.add(j.append(record(thread, i)));
          }
          long[] sequences = new long[each];
          for (int i = 0; i < each; i++) {
            sequences[i] = futures.get(i).join();
          }
          return sequences;
        }));
      }
      start.countDown();
      Set<Long> seen = new HashSet<>();
      for (Future<long[]> f : perThread) {
        long[] sequences = f.get(60, TimeUnit.SECONDS);
        for (int i = 0; i < each; i++) {
          assertThat(seen.add(sequences[i])).isTrue();
          if (i > 0) {
            assertThat(sequences[i]).isGreaterThan(sequences[i - 1]);
          }
        }
      }
      assertThat(seen).hasSize(threads * each);
      assertThat(j.lastSequence()).isEqualTo(threads * each);
      stats = j.stats();
    } finally {
      pool.shutdownNow();
    }
    assertThat(stats.records()).isEqualTo(threads * each);
    assertThat(stats.forces()).isLessThan(threads * each / 20);
    assertThat(stats.batches()).isLessThan(threads * each / 20);
    System.out.printf(Locale.ROOT, "group commit: %d records in %d batches, %d forces%n",
        stats.records(), stats.batches(), stats.forces());

    try (Journal j = Journal.open(folder, JournalOptions.defaults())) {
      int[] next = new int[threads];
      long[] expected = {1};
      j.replay(1, (sequence, bytes) -> {
        assertThat(sequence).isEqualTo(expected[0]++);
        ByteBuffer b = ByteBuffer.wrap(bytes);
        int thread = b.getInt();
        int i = b.getInt();
        assertThat(i).isEqualTo(next[thread]++);
        assertThat(bytes).isEqualTo(record(thread, i));
      });
      assertThat(next).containsOnly(each);
    }
  }

  @Test
  void closeDrainsPendingAppends() throws IOException {
    List<CompletableFuture<Long>> futures = new ArrayList<>();
    Journal j = Journal.open(dir, SMALL);
    for (int n = 1; n <= 3_000; n++) {
      futures.add(j.append(payload(n, 20)));
    }
    j.close();
    for (int n = 1; n <= 3_000; n++) {
      CompletableFuture<Long> f = futures.get(n - 1);
      assertThat(f).isCompletedWithValue((long) n);
    }
    assertThatThrownBy(() -> j.append(new byte[1])).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("closed");
    assertThatThrownBy(() -> j.appendAll(List.of(new byte[1])))
        .isInstanceOf(IllegalStateException.class);
    j.close();
    try (Journal again = Journal.open(dir, SMALL)) {
      assertThat(again.lastSequence()).isEqualTo(3_000);
      assertThat(replay(again, 2_999)).extracting(Entry::sequence).containsExactly(2_999L, 3_000L);
    }
  }

  @Test
  void rollStartsANewSegmentOnlyWhenTheOpenOneHoldsRecords() throws IOException {
    try (Journal j = Journal.open(dir, JournalOptions.defaults())) {
      j.roll();
      assertThat(segments(dir)).hasSize(1);
      j.append(payload(1, 5)).join();
      j.append(payload(2, 5)).join();
      j.roll();
      j.roll();
      assertThat(segments(dir)).extracting(p -> p.getFileName().toString())
          .containsExactly("journal-00000000000000000001.log", "journal-00000000000000000003.log");
      assertThat(j.append(payload(3, 5)).join()).isEqualTo(3);
      assertThat(replay(j, 1)).extracting(Entry::sequence).containsExactly(1L, 2L, 3L);
    }
  }

  @Test
  void refusesOversizedRecordsAndEmptyBatches() throws IOException {
    try (Journal j = Journal.open(dir, JournalOptions.defaults().maxRecordBytes(1000))) {
      assertThat(j.append(new byte[1000]).join()).isEqualTo(1);
      assertThatThrownBy(() -> j.append(new byte[1001]))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1001 bytes");
      assertThatThrownBy(() -> j.appendAll(List.of(new byte[1], new byte[1001])))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> j.appendAll(List.of()))
          .isInstanceOf(IllegalArgumentException.class);
      assertThat(j.append(new byte[1]).join()).isEqualTo(2);
    }
    assertThatThrownBy(() -> JournalOptions.defaults().maxRecordBytes(0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> JournalOptions.defaults().segmentBytes(10))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aWriteFailureBreaksTheJournalForEveryPendingAndLaterAppend() throws IOException {
    Journal j = Journal.open(dir, SMALL);
    for (int n = 1; n <= 10; n++) {
      j.append(payload(n, 10)).join();
    }
    j.simulateDiskFailure();
    CompletableFuture<Long> failed = j.append(payload(11, 10));
    assertThatThrownBy(failed::join).hasCauseInstanceOf(FsmException.class)
        .hasMessageContaining("is broken")
        .hasRootCauseInstanceOf(IOException.class);
    CompletableFuture<Long> later = j.append(payload(12, 10));
    assertThat(later).isCompletedExceptionally();
    assertThatThrownBy(later::join).hasMessageContaining("takes no more records");
    assertThatThrownBy(j::roll).isInstanceOf(FsmException.class).hasMessageContaining("broken");
    assertThat(j.lastSequence()).isEqualTo(10);
    j.close();
    try (Journal again = Journal.open(dir, SMALL)) {
      assertThat(again.lastSequence()).isEqualTo(10);
      assertThat(again.append(payload(11, 10)).join()).isEqualTo(11);
    }
  }

  @Test
  void deleteSegmentsBeforeKeepsTheSegmentsStillNeeded() throws IOException {
    try (Journal j = Journal.open(dir, SMALL)) {
      for (int n = 1; n <= 100; n++) {
        j.append(payload(n, 60)).join();
      }
      List<Path> before = segments(dir);
      assertThat(before).hasSizeGreaterThan(4);
      long secondFirst = Segments.firstSequenceOf(before.get(1));

      j.deleteSegmentsBefore(secondFirst - 1);
      assertThat(segments(dir)).isEqualTo(before);

      j.deleteSegmentsBefore(50);
      List<Path> after = segments(dir);
      assertThat(Segments.firstSequenceOf(after.get(0))).isLessThanOrEqualTo(50);
      assertThat(after.size() > 1 ? Segments.firstSequenceOf(after.get(1)) : 101).isGreaterThan(50);
      assertThat(replay(j, 50)).extracting(Entry::sequence)
          .containsExactlyElementsOf(sequences(50, 100));
      assertThatThrownBy(() -> replay(j, 1)).isInstanceOf(FsmException.class)
          .hasMessageContaining("no longer holds record 1")
          .hasMessageContaining(after.get(0).getFileName().toString());

      j.deleteSegmentsBefore(Long.MAX_VALUE);
      assertThat(segments(dir)).containsExactly(before.get(before.size() - 1));
      assertThat(j.append(payload(101, 60)).join()).isEqualTo(101);
      long first = Segments.firstSequenceOf(before.get(before.size() - 1));
      assertThat(replay(j, first)).extracting(Entry::sequence)
          .containsExactlyElementsOf(sequences(first, 101));
    }
    try (Journal j = Journal.open(dir, SMALL)) {
      assertThat(j.recovery().clean()).isTrue();
      assertThat(j.recovery().firstSequence())
          .isEqualTo(Segments.firstSequenceOf(segments(dir).get(0)));
      assertThat(j.lastSequence()).isEqualTo(101);
      assertThat(j.append(payload(102, 60)).join()).isEqualTo(102);
    }
  }

  @Test
  void aFolderHasOneOpenJournalAtATime() throws IOException {
    try (Journal j = Journal.open(dir, SMALL)) {
      assertThatThrownBy(() -> Journal.open(dir, SMALL)).isInstanceOf(FsmException.class)
          .hasMessageContaining("already open").hasMessageContaining(dir.toString());
      j.append(new byte[3]).join();
    }
    try (Journal j = Journal.open(dir, SMALL)) {
      assertThat(j.lastSequence()).isEqualTo(1);
    }
  }

  @Test
  void callbacksOnTheWriterThreadCannotBlockOnIt() throws IOException {
    try (Journal j = Journal.open(dir, SMALL)) {
      // A callback runs on the writer only when attached before the append completes; attaching
      // after, it runs here. Try until one ran on the writer.
      Throwable refused = null;
      for (int attempt = 0; attempt < 1_000 && refused == null; attempt++) {
        CompletableFuture<Throwable> fromCallback = new CompletableFuture<>();
        j.append(new byte[1]).thenRun(() -> {
          if (!Thread.currentThread().getName().equals("fsm-journal-writer")) {
            fromCallback.complete(null);
            return;
          }
          try {
            j.roll();
            fromCallback.complete(new AssertionError("roll() returned on the writer thread"));
          } catch (RuntimeException e) {
            fromCallback.complete(e);
          }
        }).join();
        refused = fromCallback.join();
      }
      assertThat(refused).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("writer's own thread");
    }
  }

  @Test
  void printsThroughput() throws Exception {
    int writers = 4;
    int each = 5_000;
    byte[] record = new byte[200];
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    try (Journal j = Journal.open(dir, JournalOptions.defaults())) {
      long started = System.nanoTime();
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < writers; t++) {
        done.add(pool.submit(() -> {
          for (int i = 0; i < each; i++) {
            j.append(record).join();
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      JournalStats s = j.stats();
      System.out.printf(Locale.ROOT, "journal throughput: %d writers x %d durable appends of %d"
              + " bytes: %.0f records/s, %d forces, %.1f records per force%n", writers, each,
          record.length, writers * each / seconds, s.forces(), s.recordsPerBatch());
      assertThat(s.records()).isEqualTo((long) writers * each);
    } finally {
      pool.shutdownNow();
    }
  }

  private static byte[] record(int thread, int i) {
    return ByteBuffer.allocate(8 + (i % 50)).putInt(thread).putInt(i).array();
  }

  private static void assertReplays(Journal j, long from, List<byte[]> written)
      throws IOException {
    List<Entry> seen = replay(j, from);
    assertThat(seen).extracting(Entry::sequence)
        .containsExactlyElementsOf(sequences(from, written.size()));
    for (Entry e : seen) {
      assertThat(e.record()).isEqualTo(written.get((int) e.sequence() - 1));
    }
  }

  private static List<Long> sequences(long from, long to) {
    List<Long> s = new ArrayList<>();
    for (long n = from; n <= to; n++) {
      s.add(n);
    }
    return s;
  }
}

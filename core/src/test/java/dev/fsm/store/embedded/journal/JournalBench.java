package dev.fsm.store.embedded.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * Durable appends/s of the journal against a bare group-commit log written inline here, with 1,
 * 4 and 64 writers that each wait for their ack, and p99 ack latency at half of the 64-writer
 * rate. Not run by the build:
 *
 * <pre>
 * mvn -q -B -o test-compile -pl core
 * java -cp core/target/classes:core/target/test-classes \
 *     dev.fsm.store.embedded.journal.JournalBench [folder on the disk to measure] [seconds]
 * </pre>
 */
public final class JournalBench {

  private static final int RECORD_BYTES = 200;

  /** What both logs offer the bench. */
  private interface Log extends AutoCloseable {
    CompletableFuture<Long> append(byte[] record);

    long forces();

    @Override
    void close() throws IOException;
  }

  private record Result(double perSecond, double p50Millis, double p99Millis, long forces,
      long records) {}

  private JournalBench() {}

  public static void main(String[] args) throws Exception {
    Path base = args.length > 0 ? Path.of(args[0])
        : Path.of(System.getProperty("java.io.tmpdir"));
    double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 3;
    Path root = Files.createTempDirectory(Files.createDirectories(base), "journal-bench");
    System.out.printf(Locale.ROOT, "journal bench in %s, %d-byte records, %.0f s per run, %d"
        + " cores%n", root, RECORD_BYTES, seconds, Runtime.getRuntime().availableProcessors());
    int[] run = {0};
    Supplier<Log> bare = () -> open(true, root.resolve("bare" + run[0]++));
    Supplier<Log> journal = () -> open(false, root.resolve("journal" + run[0]++));

    closedLoop(journal, 4, 1); // warm-up
    closedLoop(bare, 4, 1);
    System.out.printf(Locale.ROOT, "%-8s %-8s %12s %9s %9s %12s%n", "writers", "log",
        "records/s", "p50 ms", "p99 ms", "recs/force");
    double rate64 = 0;
    for (int writers : new int[] {1, 4, 64}) {
      Result b = closedLoop(bare, writers, seconds);
      Result j = closedLoop(journal, writers, seconds);
      print(writers, "bare", b);
      print(writers, "journal", j);
      System.out.printf(Locale.ROOT, "%-8d ratio    %12.2f%n", writers, j.perSecond / b.perSecond);
      rate64 = j.perSecond;
    }
    double half = rate64 / 2;
    Result bareHalf = openLoop(bare, half, seconds);
    Result journalHalf = openLoop(journal, half, seconds);
    System.out.printf(Locale.ROOT, "half load (%.0f records/s offered, open loop): bare p50 %.2f"
        + " ms p99 %.2f ms; journal p50 %.2f ms p99 %.2f ms, %.0f records/s%n", half,
        bareHalf.p50Millis, bareHalf.p99Millis, journalHalf.p50Millis, journalHalf.p99Millis,
        journalHalf.perSecond);
    delete(root);
  }

  private static Log open(boolean bare, Path folder) {
    try {
      return bare ? new BareLog(folder) : new JournalLog(Journal.open(folder,
          JournalOptions.defaults()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Each writer appends and waits for the ack, again and again. */
  private static Result closedLoop(Supplier<Log> opener, int writers, double seconds)
      throws Exception {
    byte[] record = new byte[RECORD_BYTES];
    Arrays.fill(record, (byte) 'x');
    long[][] latencies = new long[writers][];
    int[] counts = new int[writers];
    try (Log log = opener.get()) {
      long end = System.nanoTime() + (long) (seconds * 1e9);
      List<Thread> threads = new ArrayList<>();
      long started = System.nanoTime();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        Thread t = new Thread(() -> {
          long[] mine = new long[1 << 16];
          int n = 0;
          long now;
          while ((now = System.nanoTime()) < end) {
            log.append(record).join();
            if (n == mine.length) {
              mine = Arrays.copyOf(mine, n * 2);
            }
            mine[n++] = System.nanoTime() - now;
          }
          latencies[writer] = mine;
          counts[writer] = n;
        });
        threads.add(t);
        t.start();
      }
      for (Thread t : threads) {
        t.join();
      }
      double elapsed = (System.nanoTime() - started) / 1e9;
      int total = Arrays.stream(counts).sum();
      long[] all = new long[total];
      int at = 0;
      for (int w = 0; w < writers; w++) {
        System.arraycopy(latencies[w], 0, all, at, counts[w]);
        at += counts[w];
      }
      return result(all, total / elapsed, log.forces(), total);
    }
  }

  /** Appends arrive at a fixed rate whatever the acks do; latency counts from arrival. */
  private static Result openLoop(Supplier<Log> opener, double perSecond, double seconds)
      throws Exception {
    byte[] record = new byte[RECORD_BYTES];
    int total = (int) (perSecond * seconds);
    long[] latencies = new long[total];
    List<CompletableFuture<Long>> futures = new ArrayList<>(total);
    try (Log log = opener.get()) {
      long start = System.nanoTime();
      for (int i = 0; i < total; i++) {
        long due = start + (long) (i * 1e9 / perSecond);
        long wait = due - System.nanoTime();
        if (wait > 200_000) {
          LockSupport.parkNanos(wait);
        }
        int index = i;
        futures.add(log.append(record).whenComplete(
            (s, e) -> latencies[index] = System.nanoTime() - due));
      }
      CompletableFuture.allOf(futures.toArray(CompletableFuture[]::new)).join();
      double elapsed = (System.nanoTime() - start) / 1e9;
      return result(latencies, total / elapsed, log.forces(), total);
    }
  }

  private static Result result(long[] latencies, double perSecond, long forces, long records) {
    Arrays.sort(latencies);
    double p50 = latencies[(int) (latencies.length * 0.50)] / 1e6;
    double p99 = latencies[Math.min(latencies.length - 1, (int) (latencies.length * 0.99))] / 1e6;
    return new Result(perSecond, p50, p99, forces, records);
  }

  private static void print(int writers, String log, Result r) {
    System.out.printf(Locale.ROOT, "%-8d %-8s %12.0f %9.2f %9.2f %12.1f%n", writers, log,
        r.perSecond, r.p50Millis, r.p99Millis, (double) r.records / Math.max(1, r.forces));
  }

  private static void delete(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  private static final class JournalLog implements Log {
    private final Journal journal;

    JournalLog(Journal journal) {
      this.journal = journal;
    }

    @Override
    public CompletableFuture<Long> append(byte[] record) {
      return journal.append(record);
    }

    @Override
    public long forces() {
      return journal.stats().forces();
    }

    @Override
    public void close() throws IOException {
      journal.close();
    }
  }

  /**
   * The baseline: one file, one writer thread that takes everything queued, writes it with one
   * write, forces once and completes the futures. No segments, recovery or checks.
   */
  private static final class BareLog implements Log {
    private record Request(byte[] record, CompletableFuture<Long> done) {}

    private static final Request STOP = new Request(null, null);

    private final LinkedBlockingQueue<Request> queue = new LinkedBlockingQueue<>();
    private final FileChannel channel;
    private final Thread thread;
    private volatile long forces;

    BareLog(Path folder) throws IOException {
      Files.createDirectories(folder);
      channel = FileChannel.open(folder.resolve("log"), StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE);
      thread = new Thread(this::run, "bare-log-writer");
      thread.start();
    }

    @Override
    public CompletableFuture<Long> append(byte[] record) {
      Request r = new Request(record, new CompletableFuture<>());
      queue.add(r);
      return r.done;
    }

    @Override
    public long forces() {
      return forces;
    }

    private void run() {
      ByteBuffer buffer = ByteBuffer.allocateDirect(4 << 20);
      CRC32C crc = new CRC32C();
      List<Request> batch = new ArrayList<>();
      long sequence = 0;
      long position = 0;
      try {
        while (true) {
          batch.add(queue.take());
          queue.drainTo(batch);
          boolean stop = false;
          for (Request r : batch) {
            if (r == STOP) {
              stop = true;
              continue;
            }
            if (buffer.remaining() < 8 + r.record.length) {
              buffer.flip();
              while (buffer.hasRemaining()) {
                position += channel.write(buffer, position);
              }
              buffer.clear();
            }
            crc.reset();
            crc.update(r.record);
            buffer.putInt(r.record.length).putInt((int) crc.getValue()).put(r.record);
          }
          buffer.flip();
          while (buffer.hasRemaining()) {
            position += channel.write(buffer, position);
          }
          buffer.clear();
          channel.force(false);
          forces++;
          for (Request r : batch) {
            if (r != STOP) {
              r.done.complete(++sequence);
            }
          }
          batch.clear();
          if (stop) {
            return;
          }
        }
      } catch (IOException | InterruptedException e) {
        batch.forEach(r -> r.done.completeExceptionally(e));
      }
    }

    @Override
    public void close() throws IOException {
      queue.add(STOP);
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      channel.close();
    }
  }
}

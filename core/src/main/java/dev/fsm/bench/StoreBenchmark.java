package dev.fsm.bench;

import dev.fsm.store.embedded.EmbeddedStore;
import dev.fsm.store.embedded.EmbeddedStoreOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The store benchmark of issue 3 in one run, in a fresh folder on the disk that is deleted at
 * the end: the bare journal and the store with each writer count, ack latency at half load, and
 * a store with many tasks. Measures only; showing the results is the caller's.
 */
public final class StoreBenchmark {

  /** The writer count whose throughput sets the half load, when it was measured. */
  private static final int HALF_LOAD_WRITERS = 4;

  /** A short run of each path first, so the first measurement is not of the JIT compiler. */
  private static final double WARM_UP_SECONDS = 1;

  private StoreBenchmark() {}

  /** Runs the benchmark in a new folder under {@code options.parent()}. */
  public static BenchReport run(BenchOptions options, BenchListener listener) throws IOException {
    Path folder = Files.createTempDirectory(Files.createDirectories(options.parent()),
        ".fsm-bench-");
    try {
      return run(folder, options, listener);
    } finally {
      delete(folder);
    }
  }

  private static BenchReport run(Path folder, BenchOptions options, BenchListener listener)
      throws IOException {
    BenchTasks tasks = new BenchTasks(options.contextBytes());
    int recordBytes = tasks.transitionRecordBytes();
    List<Integer> writers = options.writers();

    listener.phase("warming up");
    LogBench.run(folder.resolve("warm-up-log"), HALF_LOAD_WRITERS, WARM_UP_SECONDS, recordBytes);
    List<Interleaved> oneByOne;
    List<Throughput> storeBatched = new ArrayList<>();
    HalfLoad halfLoad;
    try (EmbeddedStore s = EmbeddedStore.open(folder.resolve("transitions"),
        EmbeddedStoreOptions.defaults().purpose("fsm bench"))) {
      StoreBench bench = new StoreBench(s, tasks, options.claimBatch());
      bench.createPool(StoreBench.poolSize(Collections.max(writers), options.claimBatch()),
          options.createBatch());
      bench.closedLoop(HALF_LOAD_WRITERS, WARM_UP_SECONDS);
      oneByOne = interleave(folder, options, recordBytes, s, bench, listener);
      for (int w : writers) {
        listener.phase("store, " + w + (w == 1 ? " writer" : " writers") + ", batched outcomes");
        storeBatched.add(bench.closedLoopBatched(w, options.seconds()));
      }
      Throughput basis = halfLoadBasis(oneByOne.stream().map(Interleaved::storeMedian).toList());
      double offered = basis.perSecond() / 2;
      // The saturating runs above start checkpoints of their journal growth that can last
      // seconds into the next run; they are that load's work, not half load's. Checkpoints that
      // half load itself starts are measured.
      listener.phase("waiting for the checkpoint the saturating runs started");
      awaitCheckpoint(s);
      listener.phase(String.format("store at half load: %d writers paced to %,.0f transitions/s",
          HALF_LOAD_WRITERS, offered));
      halfLoad = bench.paced(HALF_LOAD_WRITERS, basis.writers(), offered, options.seconds(),
          () -> s.journalStats().forces());
    }

    ScaleResult scale = ScaleBench.run(folder.resolve("tasks"), options, tasks, listener);
    return new BenchReport(options, folder, fileSystem(folder),
        Runtime.getRuntime().availableProcessors(), recordBytes, oneByOne, storeBatched,
        halfLoad, scale);
  }

  /**
   * The bare log, then the store recording one by one, for each writer count, round after
   * round. Before each bare log run the checkpoint a store run started is let finish: it is the
   * store's work, and would otherwise slow the bare log beside it.
   */
  private static List<Interleaved> interleave(Path folder, BenchOptions options,
      int recordBytes, EmbeddedStore store, StoreBench bench, BenchListener listener)
      throws IOException {
    List<Integer> writers = options.writers();
    List<List<Throughput>> bareLog = new ArrayList<>();
    List<List<Throughput>> oneByOne = new ArrayList<>();
    for (int i = 0; i < writers.size(); i++) {
      bareLog.add(new ArrayList<>());
      oneByOne.add(new ArrayList<>());
    }
    int rounds = options.rounds();
    // With rounds, round 0 is measured like the others but not counted: the first counted round
    // otherwise ran while the JIT compiler still worked on the store's path, at 0.47-0.63x the
    // bare log against 0.67-0.88x for the rounds after it, which made "every round at least
    // 0.7x" a test of the compiler (three runs, 2026-11-28).
    for (int round = rounds > 1 ? 0 : 1; round <= rounds; round++) {
      boolean counted = round > 0;
      String of = rounds == 1 ? "" : " (round " + round + " of " + rounds + ")";
      for (int i = 0; i < writers.size(); i++) {
        int w = writers.get(i);
        String who = w + (w == 1 ? " writer" : " writers");
        awaitCheckpoint(store);
        listener.phase(counted ? "bare log, " + who + of
            : "warming up: bare log and store, " + who + " (not counted)");
        Path log = folder.resolve("log-" + round + "-" + w);
        Throughput bare = LogBench.run(log, w, options.seconds(), recordBytes);
        delete(log);
        if (counted) {
          listener.phase("store, " + who + of);
        }
        Throughput stored = bench.closedLoop(w, options.seconds());
        if (counted) {
          bareLog.get(i).add(bare);
          oneByOne.get(i).add(stored);
        }
      }
    }
    List<Interleaved> pairs = new ArrayList<>();
    for (int i = 0; i < writers.size(); i++) {
      pairs.add(new Interleaved(writers.get(i), bareLog.get(i), oneByOne.get(i)));
    }
    return pairs;
  }

  /**
   * The throughput halved for the half-load run: the 4-writer one, else the measured writer
   * count nearest to 4.
   */
  static Throughput halfLoadBasis(List<Throughput> store) {
    return store.stream().min(Comparator.comparingInt(
        (Throughput t) -> Math.abs(t.writers() - HALF_LOAD_WRITERS))
        .thenComparingInt(Throughput::writers)).orElseThrow();
  }

  private static void awaitCheckpoint(EmbeddedStore store) {
    try {
      store.awaitBackgroundCheckpoint();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for a checkpoint", e);
    }
  }

  private static String fileSystem(Path folder) {
    try {
      return Files.getFileStore(folder).type();
    } catch (IOException e) {
      return "unknown";
    }
  }

  private static void delete(Path folder) throws IOException {
    try (Stream<Path> files = Files.walk(folder)) {
      for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}

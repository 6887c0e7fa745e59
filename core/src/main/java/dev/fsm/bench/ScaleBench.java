package dev.fsm.bench;

import dev.fsm.store.embedded.EmbeddedStore;
import dev.fsm.store.embedded.EmbeddedStoreOptions;
import dev.fsm.task.Change;
import dev.fsm.task.Task;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Many tasks in one store: bulk creation, bytes on disk, heap with the store open, reopen after a
 * clean close, and the index rebuild that an unclean stop after a quarter as many transitions
 * leads to.
 */
final class ScaleBench {

  private static final String CREATING = "creating tasks";
  private static final String REBUILDING = "rebuilding the index";
  private static final String TRANSITIONS = "recording transitions";
  private static final String OWNER = "bench/scale";
  private static final int CLAIM = 256;
  private static final Duration LEASE = Duration.ofMinutes(10);

  private ScaleBench() {}

  static ScaleResult run(Path folder, BenchOptions options, BenchTasks tasks,
      BenchListener listener) {
    EmbeddedStoreOptions open = EmbeddedStoreOptions.defaults().purpose("fsm bench");
    listener.phase(String.format("%,d tasks with %d-byte contexts: bulk create", options.tasks(),
        options.contextBytes()));
    long createNanos;
    try (EmbeddedStore store = EmbeddedStore.open(folder, open)) {
      Instant now = Instant.now();
      long start = System.nanoTime();
      for (int from = 0; from < options.tasks(); from += options.createBatch()) {
        int count = Math.min(options.createBatch(), options.tasks() - from);
        store.create(tasks.runnable(from, count, now));
        listener.progress(CREATING, from + count, options.tasks());
      }
      createNanos = System.nanoTime() - start;
    }
    DiskUse disk = DiskUse.of(folder);

    listener.phase("reopen after a clean close, heap after GC");
    long reopenNanos;
    boolean reopenRebuilt;
    long heapUsed;
    long start = System.nanoTime();
    try (EmbeddedStore store = EmbeddedStore.open(folder, open)) {
      reopenNanos = System.nanoTime() - start;
      reopenRebuilt = store.openReport().rebuilt();
      heapUsed = heapAfterGc();
    }

    // A crash comes after work, not straight after a bulk create: the rebuild replays a journal
    // of transitions too, one record each, as the records/s target means.
    long transitions = options.tasks() / 4;
    listener.phase(String.format("%,d transitions, then a rebuild of the index after a"
        + " simulated crash", transitions));
    try (EmbeddedStore store = EmbeddedStore.open(folder, open)) {
      // From a checkpoint of every task, so the journal holds the transitions alone, whenever
      // the bulk create's own checkpoints happened to run.
      store.checkpoint();
      for (long done = 0; done < transitions; ) {
        List<Task> claimed = store.claim(OWNER, (int) Math.min(CLAIM, transitions - done),
            Instant.now(), LEASE);
        List<Change> outcomes = new ArrayList<>(claimed.size());
        for (Task t : claimed) {
          outcomes.add(tasks.succeeded(t, OWNER, Instant.now()));
        }
        store.recordAll(OWNER, outcomes);
        done += claimed.size();
        listener.progress(TRANSITIONS, done, transitions);
      }
    }
    EmbeddedStoreOptions crashed = open.forceRebuild(true)
        .progress((done, total) -> listener.progress(REBUILDING, done, total));
    long rebuildMillis;
    long rebuildRecords;
    try (EmbeddedStore store = EmbeddedStore.open(folder, crashed)) {
      rebuildMillis = store.openReport().millis();
      rebuildRecords = store.openReport().recordsReplayed();
    }
    return new ScaleResult(options.tasks(), createNanos, disk, heapUsed,
        Runtime.getRuntime().maxMemory(), reopenNanos, reopenRebuilt, transitions, rebuildMillis,
        rebuildRecords);
  }

  /**
   * Heap in use after full collections. Several, since one may leave garbage that a finalizer
   * or reference queue releases only later.
   */
  private static long heapAfterGc() {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 3; i++) {
      System.gc();
      used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}

package dev.fsm.bench;

import dev.fsm.store.embedded.EmbeddedStore;
import dev.fsm.store.embedded.EmbeddedStoreOptions;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Instant;

/**
 * Many tasks in one store: bulk creation, bytes on disk, heap with the store open, reopen after a
 * clean close and the index rebuild that an unclean stop leads to.
 */
final class ScaleBench {

  private static final String CREATING = "creating tasks";
  private static final String REBUILDING = "rebuilding the index";

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

    listener.phase("rebuild of the index after a simulated crash");
    EmbeddedStoreOptions crashed = open.forceRebuild(true)
        .progress((done, total) -> listener.progress(REBUILDING, done, total));
    long rebuildMillis;
    long rebuildRecords;
    try (EmbeddedStore store = EmbeddedStore.open(folder, crashed)) {
      rebuildMillis = store.openReport().millis();
      rebuildRecords = store.openReport().recordsReplayed();
    }
    return new ScaleResult(options.tasks(), createNanos, disk, heapUsed,
        Runtime.getRuntime().maxMemory(), reopenNanos, reopenRebuilt, rebuildMillis,
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

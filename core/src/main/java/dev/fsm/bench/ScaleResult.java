package dev.fsm.bench;

/**
 * A store holding many tasks: what creating them took, their size on disk and on the heap, and
 * how fast the store opens again, cleanly and after a crash.
 *
 * @param tasks tasks stored
 * @param createNanos how long creating them in bulk took
 * @param disk the store folder's bytes after a clean close
 * @param heapUsedBytes heap in use after a full GC, with the tasks stored and the store open
 * @param maxHeapBytes the JVM's maximum heap (-Xmx)
 * @param reopenNanos how long opening the store took after a clean close
 * @param reopenRebuilt whether that open rebuilt the index anyway (it should not)
 * @param transitions transitions recorded (one journal record each) before the crash
 * @param rebuildMillis how long rebuilding the index took, from the store's open report
 * @param rebuildRecords snapshot and journal records the rebuild read
 */
public record ScaleResult(long tasks, long createNanos, DiskUse disk, long heapUsedBytes,
    long maxHeapBytes, long reopenNanos, boolean reopenRebuilt, long transitions,
    long rebuildMillis, long rebuildRecords) {

  /** Tasks created per second. */
  public double createPerSecond() {
    return createNanos <= 0 ? 0 : tasks * 1e9 / createNanos;
  }

  /** Bytes on disk per task, the whole store folder counted. */
  public double bytesPerTask() {
    return (double) disk.total() / tasks;
  }

  /** Snapshot and journal records read per second by the rebuild. */
  public double rebuildRecordsPerSecond() {
    return rebuildMillis <= 0 ? 0 : rebuildRecords * 1000.0 / rebuildMillis;
  }

  /** Tasks restored per second by the rebuild. */
  public double rebuildTasksPerSecond() {
    return rebuildMillis <= 0 ? 0 : tasks * 1000.0 / rebuildMillis;
  }

  /** Clean reopen time in milliseconds. */
  public double reopenMillis() {
    return reopenNanos / 1e6;
  }
}

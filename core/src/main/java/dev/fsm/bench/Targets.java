package dev.fsm.bench;

import java.util.ArrayList;
import java.util.List;

/** Issue 3's targets for the embedded store, and whether a run met them. */
public final class Targets {

  /** Store transitions/s over the bare log's records/s, with the same writers. */
  public static final double MIN_RATIO = 0.8;
  /**
   * Issue 21: with {@link #WRITERS_FOR_MIN_RATE} writers, no interleaved round's ratio below
   * this, while their median meets {@link #MIN_RATIO}.
   */
  public static final double MIN_RATIO_EACH_ROUND = 0.7;
  /**
   * Issue 21: with {@link #MANY_WRITERS} writers or more, the median interleaved round's ratio
   * (issue 3's {@link #MIN_RATIO} stays the target of a single run).
   */
  public static final double MIN_RATIO_MANY_WRITERS = 0.5;
  /** The writer count from which {@link #MIN_RATIO_MANY_WRITERS} applies. */
  public static final int MANY_WRITERS = 64;
  /** Durable transitions/s with {@link #WRITERS_FOR_MIN_RATE} writers. */
  public static final double MIN_RATE = 10_000;
  /** The writer count the rate target is for. */
  public static final int WRITERS_FOR_MIN_RATE = 4;
  /** p99 durable-ack latency at half load. */
  public static final double MAX_P99_MILLIS = 25;
  /** Bytes on disk per task with a 200-byte context, history aside. */
  public static final double MAX_BYTES_PER_TASK = 300;
  /** Heap in use with the tasks stored and the store open. */
  public static final long MAX_HEAP_BYTES = 80L << 20;
  /** Reopen after a clean close. */
  public static final double MAX_REOPEN_MILLIS = 1000;
  /** Rebuild of the index from snapshot and journal, in records read. */
  public static final double MIN_REBUILD_PER_SECOND = 100_000;

  /** The targets in words. */
  public static final String HALF_LOAD_TARGET = "p99 ≤ 25 ms";
  public static final String BYTES_TARGET = "≤ 300 B";
  public static final String HEAP_TARGET = "≤ 80 MiB";
  public static final String REOPEN_TARGET = "≤ 1 s";
  public static final String REBUILD_TARGET = "≥ 100,000 records/s";

  /**
   * One target checked.
   *
   * @param key a stable snake_case name
   * @param target the target in words, e.g. {@code ≤ 25 ms}
   * @param met whether the run met it
   */
  public record Check(String key, String target, boolean met) {}

  private Targets() {}

  /** Whether store throughput with these writers met its targets. */
  public static boolean storeMet(Throughput store, Throughput bareLog) {
    boolean ratio = BenchReport.ratio(store, bareLog) >= MIN_RATIO;
    return store.writers() == WRITERS_FOR_MIN_RATE ? ratio && store.perSecond() >= MIN_RATE
        : ratio;
  }

  /**
   * Whether the store recording one by one met its targets over interleaved rounds: the median
   * round's ratio and rate, and with {@link #WRITERS_FOR_MIN_RATE} writers every round's ratio
   * at least {@link #MIN_RATIO_EACH_ROUND}; with {@link #MANY_WRITERS}, issue 21's lower median.
   */
  public static boolean storeMet(Interleaved p) {
    if (p.rounds() > 1 && p.writers() >= MANY_WRITERS) {
      return p.ratioMedian() >= MIN_RATIO_MANY_WRITERS;
    }
    boolean ratio = p.ratioMedian() >= MIN_RATIO;
    if (p.writers() != WRITERS_FOR_MIN_RATE) {
      return ratio;
    }
    return ratio && p.ratioLowest() >= MIN_RATIO_EACH_ROUND
        && p.storeMedian().perSecond() >= MIN_RATE;
  }

  /** The target of store throughput with these writers, in words. */
  public static String storeTarget(int writers) {
    return writers == WRITERS_FOR_MIN_RATE ? "≥ 0.8× bare log and ≥ 10,000/s" : "≥ 0.8× bare log";
  }

  /** The target of store throughput one by one over interleaved rounds, in words. */
  public static String storeTarget(int writers, int rounds) {
    if (rounds == 1) {
      return storeTarget(writers);
    }
    if (writers >= MANY_WRITERS) {
      return "median ≥ 0.5× bare log";
    }
    return writers == WRITERS_FOR_MIN_RATE
        ? "median ≥ 0.8× bare log, each ≥ 0.7×, ≥ 10,000/s" : "median ≥ 0.8× bare log";
  }

  /** Whether the p99 ack latency at half load met its target. */
  public static boolean halfLoadMet(HalfLoad h) {
    return h.latency().p99Millis() <= MAX_P99_MILLIS;
  }

  /** Whether bytes on disk per task met their target. */
  public static boolean bytesMet(ScaleResult s) {
    return s.bytesPerTask() <= MAX_BYTES_PER_TASK;
  }

  /** Whether heap in use met its target. */
  public static boolean heapMet(ScaleResult s) {
    return s.heapUsedBytes() <= MAX_HEAP_BYTES;
  }

  /** Whether the clean reopen was fast and used the index as left, not rebuilding it. */
  public static boolean reopenMet(ScaleResult s) {
    return s.reopenMillis() <= MAX_REOPEN_MILLIS && !s.reopenRebuilt();
  }

  /**
   * Whether the rebuild met its target, in snapshot and journal records read: one per task in
   * the snapshot, one per transition in the journal (a bulk create's record holds a thousand
   * tasks, so the tasks restored per second are reported too).
   */
  public static boolean rebuildMet(ScaleResult s) {
    return s.rebuildRecordsPerSecond() >= MIN_REBUILD_PER_SECOND;
  }

  /** Every target this run checked, in the order of the report. */
  public static List<Check> check(BenchReport r) {
    List<Check> checks = new ArrayList<>();
    for (Interleaved p : r.oneByOne()) {
      checks.add(new Check("store_" + p.writers() + "_writers",
          storeTarget(p.writers(), p.rounds()), storeMet(p)));
    }
    for (Throughput s : r.storeBatched()) {
      r.bareLog(s.writers()).ifPresent(b -> checks.add(new Check("store_batched_"
          + s.writers() + "_writers", storeTarget(s.writers()), storeMet(s, b))));
    }
    ScaleResult s = r.scale();
    checks.add(new Check("half_load_p99", HALF_LOAD_TARGET, halfLoadMet(r.halfLoad())));
    checks.add(new Check("bytes_per_task", BYTES_TARGET, bytesMet(s)));
    checks.add(new Check("heap_used", HEAP_TARGET, heapMet(s)));
    checks.add(new Check("reopen", REOPEN_TARGET, reopenMet(s)));
    checks.add(new Check("rebuild", REBUILD_TARGET, rebuildMet(s)));
    return checks;
  }
}

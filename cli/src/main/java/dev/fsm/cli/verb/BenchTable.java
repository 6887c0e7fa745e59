package dev.fsm.cli.verb;

import dev.fsm.bench.BenchReport;
import dev.fsm.bench.DiskUse;
import dev.fsm.bench.HalfLoad;
import dev.fsm.bench.Interleaved;
import dev.fsm.bench.ScaleResult;
import dev.fsm.bench.Targets;
import dev.fsm.bench.Throughput;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** A bench report as a text table: measure, result, target, met. */
final class BenchTable {

  private static final String NONE = "-";

  private BenchTable() {}

  static void print(BenchReport r, PrintWriter out) {
    int rounds = r.options().rounds();
    out.println(f("store benchmark: %d cores, %s, %,d tasks with %d-byte contexts, %s s per"
        + " throughput measure%s, claims of %d, %d-byte transition records", r.cores(),
        r.fileSystem(), r.options().tasks(), r.options().contextBytes(),
        number(r.options().seconds()), rounds == 1 ? ""
            : f(", bare log and store one by one in turn %d times after a round not counted",
                rounds),
        r.options().claimBatch(), r.recordBytes()));
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"measure", "result", "target", "met"});
    for (Interleaved p : r.oneByOne()) {
      Throughput b = p.bareLogMedian();
      rows.add(new String[] {"bare log, " + writers(p.writers()),
          f("%,.0f records/s", b.perSecond()) + spread(p.bareLog()), NONE, NONE});
    }
    for (Interleaved p : r.oneByOne()) {
      rows.add(oneByOneRow(p));
    }
    for (Throughput s : r.storeBatched()) {
      rows.add(storeRow(r, s, ", batched outcomes"));
    }
    HalfLoad h = r.halfLoad();
    rows.add(new String[] {f("ack latency at half load (%d writers, %,.0f/s offered)",
        h.writers(), h.offeredPerSecond()), f("p50 %.1f ms, p99 %.1f ms, max %.1f ms; %,.0f"
        + " forces/s", h.latency().p50Millis(), h.latency().p99Millis(),
        h.latency().maxMillis(), h.forcesPerSecond()),
        Targets.HALF_LOAD_TARGET, yesNo(Targets.halfLoadMet(h))});
    ScaleResult s = r.scale();
    DiskUse d = s.disk();
    rows.add(new String[] {f("bulk create of %,d tasks", s.tasks()),
        f("%,.0f tasks/s (%.1f s)", s.createPerSecond(), s.createNanos() / 1e9), NONE, NONE});
    rows.add(new String[] {"bytes on disk per task", f("%.0f B (journal %.0f, index %.0f,"
        + " other %.0f)", s.bytesPerTask(), per(d.journalBytes(), s), per(d.indexBytes(), s),
        per(d.otherBytes(), s)), Targets.BYTES_TARGET, yesNo(Targets.bytesMet(s))});
    rows.add(new String[] {"heap used after GC, store open", f("%.1f MiB (-Xmx %,d MiB)",
        s.heapUsedBytes() / 1048576.0, s.maxHeapBytes() >> 20), Targets.HEAP_TARGET,
        yesNo(Targets.heapMet(s))});
    rows.add(new String[] {"reopen after a clean close", f("%,.0f ms%s", s.reopenMillis(),
        s.reopenRebuilt() ? " (rebuilt the index!)" : ""), Targets.REOPEN_TARGET,
        yesNo(Targets.reopenMet(s))});
    rows.add(new String[] {f("rebuild after %,d more transitions and a crash", s.transitions()),
        f("%,d ms: %,d snapshot and journal records, %,.0f records/s (%,.0f tasks/s)",
        s.rebuildMillis(), s.rebuildRecords(), s.rebuildRecordsPerSecond(),
        s.rebuildTasksPerSecond()), Targets.REBUILD_TARGET,
        yesNo(Targets.rebuildMet(s))});
    int[] widths = new int[4];
    for (String[] row : rows) {
      for (int i = 0; i < 4; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      out.println(f("%-" + widths[0] + "s  %-" + widths[1] + "s  %-" + widths[2] + "s  %s",
          (Object[]) row).stripTrailing());
    }
  }

  private static double per(long bytes, ScaleResult s) {
    return (double) bytes / s.tasks();
  }

  private static String writers(int n) {
    return n + (n == 1 ? " writer" : " writers");
  }

  private static String yesNo(boolean met) {
    return met ? "yes" : "no";
  }

  private static String number(double d) {
    return d == Math.rint(d) ? Long.toString((long) d) : Double.toString(d);
  }

  private static String f(String format, Object... args) {
    return String.format(Locale.ROOT, format, args);
  }

  /**
   * One by one: as {@link #storeRow} for a single round; over several, the median round's rate
   * and the median, lowest and highest of the rounds' ratios.
   */
  private static String[] oneByOneRow(Interleaved p) {
    String result = p.rounds() == 1
        ? f("%,.0f transitions/s (%.2f× bare log)", p.storeMedian().perSecond(), p.ratioMedian())
        : f("%,.0f transitions/s%s; %.2f× bare log (median of %d rounds, %.2f×-%.2f×)",
            p.storeMedian().perSecond(), spread(p.store()), p.ratioMedian(), p.rounds(),
            p.ratioLowest(), p.ratioHighest());
    return new String[] {"store, " + writers(p.writers()), result,
        Targets.storeTarget(p.writers(), p.rounds()), yesNo(Targets.storeMet(p))};
  }

  /** Of several runs, the median's spread: {@code  (median of 5, 9,100-11,800)}. */
  private static String spread(List<Throughput> runs) {
    if (runs.size() == 1) {
      return "";
    }
    double low = runs.stream().mapToDouble(Throughput::perSecond).min().orElseThrow();
    double high = runs.stream().mapToDouble(Throughput::perSecond).max().orElseThrow();
    return f(" (median of %d, %,.0f-%,.0f)", runs.size(), low, high);
  }

  private static String[] storeRow(BenchReport r, Throughput s, String how) {
    String ratio = r.bareLog(s.writers()).map(b -> f(" (%.2f× bare log)",
        BenchReport.ratio(s, b))).orElse("");
    boolean met = r.bareLog(s.writers()).map(b -> Targets.storeMet(s, b)).orElse(false);
    return new String[] {"store, " + writers(s.writers()) + how,
        f("%,.0f transitions/s", s.perSecond()) + ratio, Targets.storeTarget(s.writers()),
        yesNo(met)};
  }
}

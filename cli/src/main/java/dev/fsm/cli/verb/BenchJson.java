package dev.fsm.cli.verb;

import dev.fsm.bench.BenchReport;
import dev.fsm.bench.HalfLoad;
import dev.fsm.bench.Interleaved;
import dev.fsm.bench.ScaleResult;
import dev.fsm.bench.Targets;
import dev.fsm.bench.Throughput;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A bench report as one JSON document with stable snake_case keys. */
final class BenchJson {

  private BenchJson() {}

  static Map<String, Object> of(BenchReport r) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("tasks", r.options().tasks());
    doc.put("context_bytes", r.options().contextBytes());
    doc.put("seconds_per_measure", r.options().seconds());
    doc.put("rounds", r.options().rounds());
    doc.put("writers", r.options().writers());
    doc.put("claim_batch", r.options().claimBatch());
    doc.put("create_batch", r.options().createBatch());
    doc.put("record_bytes", r.recordBytes());
    doc.put("cores", r.cores());
    doc.put("file_system", r.fileSystem());
    doc.put("bare_log", r.oneByOne().stream().map(p -> {
      Throughput b = p.bareLogMedian();
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("writers", b.writers());
      m.put("records", b.operations());
      m.put("seconds", b.nanos() / 1e9);
      m.put("records_per_second", round(b.perSecond()));
      m.put("rounds_per_second", rates(p.bareLog()));
      return m;
    }).toList());
    doc.put("store", r.oneByOne().stream().map(BenchJson::oneByOne).toList());
    doc.put("store_batched", r.storeBatched().stream().map(s -> store(r, s)).toList());
    doc.put("half_load", halfLoad(r.halfLoad()));
    doc.put("at_scale", scale(r.scale()));
    doc.put("targets", targets(Targets.check(r)));
    return doc;
  }

  private static Map<String, Object> halfLoad(HalfLoad h) {
    Map<String, Object> m = new LinkedHashMap<>();
    Throughput a = h.achieved();
    m.put("writers", h.writers());
    m.put("basis_writers", h.basisWriters());
    m.put("offered_per_second", round(h.offeredPerSecond()));
    m.put("achieved_per_second", round(a.perSecond()));
    m.put("samples", h.latency().samples());
    m.put("p50_ms", h.latency().p50Millis());
    m.put("p99_ms", h.latency().p99Millis());
    m.put("max_ms", h.latency().maxMillis());
    m.put("forces_per_second", round(h.forcesPerSecond()));
    return m;
  }

  private static Map<String, Object> scale(ScaleResult s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("tasks", s.tasks());
    m.put("create_seconds", s.createNanos() / 1e9);
    m.put("create_per_second", round(s.createPerSecond()));
    m.put("bytes_total", s.disk().total());
    m.put("journal_bytes", s.disk().journalBytes());
    m.put("index_bytes", s.disk().indexBytes());
    m.put("other_bytes", s.disk().otherBytes());
    m.put("bytes_per_task", round(s.bytesPerTask()));
    m.put("heap_used_bytes", s.heapUsedBytes());
    m.put("max_heap_bytes", s.maxHeapBytes());
    m.put("reopen_ms", s.reopenMillis());
    m.put("reopen_rebuilt", s.reopenRebuilt());
    m.put("transitions_before_rebuild", s.transitions());
    m.put("rebuild_ms", s.rebuildMillis());
    m.put("rebuild_records", s.rebuildRecords());
    m.put("rebuild_records_per_second", round(s.rebuildRecordsPerSecond()));
    m.put("rebuild_tasks_per_second", round(s.rebuildTasksPerSecond()));
    return m;
  }

  private static List<Map<String, Object>> targets(List<Targets.Check> checks) {
    return checks.stream().map(c -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("measure", c.key());
      m.put("target", c.target());
      m.put("met", c.met());
      return m;
    }).toList();
  }

  private static double round(double d) {
    return Math.round(d * 10) / 10.0;
  }

  /** The median round, each round's rate and ratio, and the median, lowest and highest ratio. */
  private static Map<String, Object> oneByOne(Interleaved p) {
    Throughput s = p.storeMedian();
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("writers", s.writers());
    m.put("transitions", s.operations());
    m.put("seconds", s.nanos() / 1e9);
    m.put("transitions_per_second", round(s.perSecond()));
    m.put("ratio_to_bare_log", ratio(p.ratioMedian()));
    m.put("rounds_per_second", rates(p.store()));
    m.put("rounds_ratio", p.ratios().stream().map(BenchJson::ratio).toList());
    m.put("ratio_lowest", ratio(p.ratioLowest()));
    m.put("ratio_highest", ratio(p.ratioHighest()));
    return m;
  }

  private static List<Double> rates(List<Throughput> runs) {
    return runs.stream().map(t -> round(t.perSecond())).toList();
  }

  private static double ratio(double r) {
    return Math.round(r * 1000) / 1000.0;
  }

  private static Map<String, Object> store(BenchReport r, Throughput s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("writers", s.writers());
    m.put("transitions", s.operations());
    m.put("seconds", s.nanos() / 1e9);
    m.put("transitions_per_second", round(s.perSecond()));
    m.put("ratio_to_bare_log", r.bareLog(s.writers())
        .map(b -> ratio(BenchReport.ratio(s, b))).orElse(null));
    return m;
  }
}

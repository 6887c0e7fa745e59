package dev.fsm.cli.verb;

import dev.fsm.bench.Latency;
import dev.fsm.bench.runner.RunnerBenchReport;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The runner benchmark's report as a text table or one JSON document, with issue 4's targets. */
final class RunnerBenchPrint {

  /** Durable transitions per second with 4 workers. */
  static final double TARGET_PER_SECOND = 10_000;
  /** Send to a running action, p50 and p99, in milliseconds. */
  static final double TARGET_SEND_P50 = 2;
  static final double TARGET_SEND_P99 = 10;

  private RunnerBenchPrint() {}

  static void text(RunnerBenchReport r, PrintWriter out) {
    out.println("WORKERS  TASKS    STATES  TRANSITIONS/S  DUE->RECORDED P50  P99 (backlog)");
    for (RunnerBenchReport.Run run : r.runs()) {
      out.println(String.format(Locale.ROOT, "%-7d  %-7s  %-6d  %-13s  %-17s  %s",
          run.workers(), String.format(Locale.ROOT, "%,d", run.tasks()), run.states(),
          String.format(Locale.ROOT, "%,.0f", run.perSecond()), ms(run.dueToRecorded().p50Millis()),
          ms(run.dueToRecorded().p99Millis())));
    }
    out.println();
    out.println(String.format(Locale.ROOT,
        "half load (%,.0f transitions/s offered, %d workers): due->recorded p50 %s, p99 %s",
        r.halfLoadRate(), r.halfLoadWorkers(), ms(r.halfLoad().p50Millis()),
        ms(r.halfLoad().p99Millis())));
    out.println(String.format(Locale.ROOT,
        "send -> running action (checkpoint over the control socket, %d sends): p50 %s, p99 %s,"
            + " max %s", r.sendToAction().samples(), ms(r.sendToAction().p50Millis()),
        ms(r.sendToAction().p99Millis()), ms(r.sendToAction().maxMillis())));
    out.println();
    out.println("targets (issue 4):");
    for (Map<String, Object> t : targets(r)) {
      out.println(String.format(Locale.ROOT, "  %-44s %-12s %-10s %s", t.get("measure"),
          t.get("result"), t.get("target"), Boolean.TRUE.equals(t.get("met")) ? "met"
              : t.get("met") == null ? "not measured" : "NOT MET"));
    }
  }

  static Map<String, Object> json(RunnerBenchReport r) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("runs", r.runs().stream().map(run -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("workers", run.workers());
      m.put("tasks", run.tasks());
      m.put("states", run.states());
      m.put("transitions", run.transitions());
      m.put("seconds", round(run.seconds()));
      m.put("transitions_per_second", Math.round(run.perSecond()));
      m.put("due_to_recorded", latency(run.dueToRecorded()));
      return m;
    }).toList());
    Map<String, Object> half = new LinkedHashMap<>();
    half.put("workers", r.halfLoadWorkers());
    half.put("offered_per_second", Math.round(r.halfLoadRate()));
    half.put("due_to_recorded", latency(r.halfLoad()));
    doc.put("half_load", half);
    doc.put("send_to_action", latency(r.sendToAction()));
    doc.put("targets", targets(r));
    return doc;
  }

  private static List<Map<String, Object>> targets(RunnerBenchReport r) {
    RunnerBenchReport.Run four = r.runs().stream().filter(run -> run.workers() == 4).findFirst()
        .orElse(null);
    Latency send = r.sendToAction();
    return List.of(
        target("durable transitions/s, 4 workers",
            four == null ? "-" : String.format(Locale.ROOT, "%,.0f", four.perSecond()),
            ">= 10,000", four == null ? null : four.perSecond() >= TARGET_PER_SECOND),
        target("send to a running action, p50", ms(send.p50Millis()), "<= 2 ms",
            send.p50Millis() <= TARGET_SEND_P50),
        target("send to a running action, p99", ms(send.p99Millis()), "<= 10 ms",
            send.p99Millis() <= TARGET_SEND_P99));
  }

  private static Map<String, Object> target(String measure, String result, String target,
      Boolean met) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("measure", measure);
    m.put("result", result);
    m.put("target", target);
    m.put("met", met);
    return m;
  }

  private static Map<String, Object> latency(Latency l) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("samples", l.samples());
    m.put("p50_ms", round(l.p50Millis()));
    m.put("p99_ms", round(l.p99Millis()));
    m.put("max_ms", round(l.maxMillis()));
    return m;
  }

  private static String ms(double millis) {
    return millis < 10 ? String.format(Locale.ROOT, "%.2f ms", millis)
        : String.format(Locale.ROOT, "%,.0f ms", millis);
  }

  private static double round(double v) {
    return Math.round(v * 100) / 100.0;
  }
}

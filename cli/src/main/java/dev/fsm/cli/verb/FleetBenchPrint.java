package dev.fsm.cli.verb;

import dev.fsm.bench.fleet.FleetBenchReport;
import dev.fsm.bench.fleet.FleetFigures;
import dev.fsm.model.Durations;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** {@code fsm bench --runners}'s report as text or one JSON document, with issue 19's target. */
final class FleetBenchPrint {

  /** At saturation, server commits per transition. */
  static final double TARGET_COMMITS_PER_TRANSITION = 0.2;

  private FleetBenchPrint() {}

  static void text(FleetBenchReport r, PrintWriter out) {
    out.println(String.format(Locale.ROOT, "%d runner%s x %d worker%s on %s (lease %s)",
        r.runners(), r.runners() == 1 ? "" : "s", r.workers(), r.workers() == 1 ? "" : "s",
        r.store(), Durations.format(r.lease())));
    out.println(String.format(Locale.ROOT, "%,d tasks x %d states: %,d transitions in %.2f s"
        + " (first claim to last completion)", r.tasks(), r.states(), r.transitions(),
        r.seconds()));
    out.println();
    out.println("RUNNER  PID       TRANSITIONS  SHARE   TRANSITIONS/S");
    int n = 0;
    for (FleetBenchReport.RunnerShare s : r.perRunner()) {
      out.println(String.format(Locale.ROOT, "%-6d  %-8d  %-11s  %-6s  %,.0f", ++n, s.pid(),
          String.format(Locale.ROOT, "%,d", s.transitions()), share(s, r), s.perSecond()));
    }
    out.println(String.format(Locale.ROOT, "%-6s  %-8s  %-11s  %-6s  %,.0f", "total", "",
        String.format(Locale.ROOT, "%,d", r.transitions()), "100%", r.perSecond()));
    out.println();
    if (r.cost().isPresent()) {
      FleetFigures.Cost c = r.cost().get();
      out.println(String.format(Locale.ROOT, "server: %,d commits (%.3f per transition, reads"
          + " included), %,d bytes of log (%,.0f per transition)", c.commits(),
          c.commitsPerTransition(), c.walBytes(), c.walBytesPerTransition()));
      if (c.walSyncs() >= 0) {
        out.println(String.format(Locale.ROOT, "        %,d log flushes to disk (%.3f per"
            + " transition)", c.walSyncs(), c.walSyncsPerTransition()));
      }
      out.println("        from the enqueue to the runners' exit, task creation included");
    } else {
      out.println("server: this kind of store reports no commit or log counters");
    }
    out.println();
    out.println("targets (issue 19):");
    for (Map<String, Object> t : targets(r)) {
      out.println(String.format(Locale.ROOT, "  %-32s %-8s %-8s %s", t.get("measure"),
          t.get("result"), t.get("target"), Boolean.TRUE.equals(t.get("met")) ? "met"
              : t.get("met") == null ? "not measured" : "NOT MET"));
    }
  }

  static Map<String, Object> json(FleetBenchReport r) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("store", r.store());
    doc.put("runners", r.runners());
    doc.put("workers", r.workers());
    doc.put("tasks", r.tasks());
    doc.put("states", r.states());
    doc.put("lease_ms", r.lease().toMillis());
    doc.put("transitions", r.transitions());
    doc.put("seconds", round(r.seconds(), 3));
    doc.put("transitions_per_second", Math.round(r.perSecond()));
    doc.put("per_runner", r.perRunner().stream().map(s -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("pid", s.pid());
      m.put("transitions", s.transitions());
      m.put("transitions_per_second", Math.round(s.perSecond()));
      return m;
    }).toList());
    doc.put("server", r.cost().map(c -> {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("commits", c.commits());
      m.put("commits_per_transition", round(c.commitsPerTransition(), 4));
      m.put("wal_bytes", c.walBytes());
      m.put("wal_bytes_per_transition", Math.round(c.walBytesPerTransition()));
      m.put("wal_syncs", c.walSyncs() < 0 ? null : c.walSyncs());
      m.put("wal_syncs_per_transition", c.walSyncs() < 0 ? null
          : round(c.walSyncsPerTransition(), 4));
      return m;
    }).orElse(null));
    doc.put("targets", targets(r));
    return doc;
  }

  private static List<Map<String, Object>> targets(FleetBenchReport r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("measure", "commits per transition");
    m.put("result", r.cost().map(c -> String.format(Locale.ROOT, "%.3f",
        c.commitsPerTransition())).orElse("-"));
    m.put("target", "<= 0.2");
    m.put("met", r.cost().map(c -> c.commitsPerTransition() <= TARGET_COMMITS_PER_TRANSITION)
        .orElse(null));
    return List.of(m);
  }

  private static String share(FleetBenchReport.RunnerShare s, FleetBenchReport r) {
    return r.transitions() == 0 ? "-" : String.format(Locale.ROOT, "%.0f%%",
        100.0 * s.transitions() / r.transitions());
  }

  private static double round(double v, int places) {
    double f = Math.pow(10, places);
    return Math.round(v * f) / f;
  }
}

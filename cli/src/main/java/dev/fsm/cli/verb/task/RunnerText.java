package dev.fsm.cli.verb.task;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.operations.RunnerReport;
import dev.fsm.store.RunnerRecord;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** How the runners of a store read: {@code fsm runners}' rows and summary, watch's header. */
final class RunnerText {

  static final String NONE = "no runner serves this store";

  private RunnerText() {}

  /** The last line of {@code fsm runners}: how many runners serve the store now. */
  static String summary(RunnerReport report) {
    int live = report.live().size();
    return live == 0 ? NONE : live + (live == 1 ? " runner serves" : " runners serve")
        + " this store";
  }

  /** Watch's header line: {@code runners: 2 (runner:12@a 4 workers, …)} or {@code no runner}. */
  static String header(RunnerReport report) {
    List<RunnerRecord> live = report.live();
    if (live.isEmpty()) {
      return "no runner";
    }
    StringBuilder line = new StringBuilder("runners: " + live.size() + " (");
    for (int i = 0; i < live.size(); i++) {
      RunnerRecord r = live.get(i);
      line.append(i == 0 ? "" : ", ").append(r.id()).append(' ').append(r.workers())
          .append(r.workers() == 1 ? " worker" : " workers");
    }
    return line.append(')').toString();
  }

  /** How long ago {@code seen} was, at the report's time: {@code 1s ago}, {@code 12m ago}. */
  static String ago(RunnerReport report, RunnerRecord r) {
    Duration d = Duration.between(r.seen(), report.at());
    if (d.isNegative() || d.toSeconds() < 1) {
      return "now";
    }
    long s = d.toSeconds();
    return (s < 120 ? s + "s" : s < 7200 ? s / 60 + "m" : s / 3600 + "h") + " ago";
  }

  /** Transitions per second, to a tenth. */
  static String rate(double rate) {
    return String.format(Locale.ROOT, "%.1f", rate);
  }

  /** The machines a runner claims: {@code all} or their names. */
  static String machines(RunnerRecord r) {
    return r.machines().isEmpty() ? "all" : String.join(",", r.machines());
  }

  /** One runner as a JSON object with stable snake_case keys. */
  static void json(JsonGenerator g, RunnerReport report, RunnerRecord r) throws IOException {
    g.writeStartObject();
    g.writeStringField("id", r.id());
    g.writeStringField("host", r.host());
    g.writeNumberField("pid", r.pid());
    g.writeNumberField("workers", r.workers());
    g.writeArrayFieldStart("machines");
    for (String m : r.machines()) {
      g.writeString(m);
    }
    g.writeEndArray();
    g.writeStringField("started", TaskJson.time(r.started()));
    g.writeStringField("seen", TaskJson.time(r.seen()));
    g.writeNumberField("seen_seconds_ago",
        Math.max(0, Duration.between(r.seen(), report.at()).toSeconds()));
    g.writeNumberField("held", r.held());
    g.writeNumberField("rate", Math.round(r.rate() * 10) / 10.0);
    g.writeStringField("status", report.status(r).word());
    g.writeEndObject();
  }
}

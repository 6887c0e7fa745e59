package dev.fsm.cli.verb.task;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.cli.common.IsoTime;
import dev.fsm.engine.ErrorGroup;
import dev.fsm.engine.ErrorReport;
import dev.fsm.engine.StateStats;
import dev.fsm.operations.BulkSendReport;
import dev.fsm.operations.MachineBreaker;
import dev.fsm.operations.PurgeReport;
import dev.fsm.operations.RunnerReport;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.RunnerRecord;
import dev.fsm.task.Lease;
import dev.fsm.task.Pausing;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The JSON shapes of tasks, histories and the task verbs' reports: the one place their keys are
 * written, so every verb prints the same stable document. Written with Jackson's streaming API
 * only ({@link JsonDocument}), since loading ObjectMapper would cost the fast send path tens of
 * milliseconds. Times are ISO-8601 in UTC to the millisecond.
 */
final class TaskJson {

  private TaskJson() {}

  /** A task showing the status given ({@code waiting} for a runnable task awaiting a signal). */
  static void task(JsonGenerator g, Task t, ShownStatus shown) throws IOException {
    g.writeStartObject();
    taskFields(g, t, shown, true);
    g.writeEndObject();
  }

  /** Tasks, in the order given, each showing the status {@code shown} gives it. */
  static void tasks(JsonGenerator g, List<Task> tasks, Function<Task, ShownStatus> shown)
      throws IOException {
    g.writeStartArray();
    for (Task t : tasks) {
      task(g, t, shown.apply(t));
    }
    g.writeEndArray();
  }

  /** A task with its history, for {@code fsm show}. */
  static void taskWithHistory(JsonGenerator g, Task t, ShownStatus shown,
      List<Transition> history) throws IOException {
    g.writeStartObject();
    taskFields(g, t, shown, true);
    g.writeFieldName("history");
    history(g, history);
    g.writeEndObject();
  }

  /** A history, oldest first. */
  static void history(JsonGenerator g, List<Transition> history) throws IOException {
    g.writeStartArray();
    for (Transition e : history) {
      g.writeStartObject();
      transitionFields(g, e);
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  /** One history entry as {@code fsm tail} streams it: the task and machine, then the entry. */
  static void tailEntry(JsonGenerator g, Task t, Transition e) throws IOException {
    g.writeStartObject();
    g.writeStringField("task", t.id());
    g.writeStringField("machine", t.machine());
    transitionFields(g, e);
    g.writeEndObject();
  }

  /**
   * One refresh of {@code fsm watch}: when, the runners serving the store, the statuses that
   * have tasks, and the tasks.
   */
  static void watchFrame(JsonGenerator g, Instant now, RunnerReport runners,
      Map<ShownStatus, Long> counts, List<Task> tasks, Function<Task, ShownStatus> shown)
      throws IOException {
    g.writeStartObject();
    g.writeStringField("time", time(now));
    g.writeArrayFieldStart("runners");
    for (RunnerRecord r : runners.live()) {
      RunnerText.json(g, runners, r);
    }
    g.writeEndArray();
    g.writeObjectFieldStart("counts");
    for (Map.Entry<ShownStatus, Long> c : counts.entrySet()) {
      g.writeNumberField(c.getKey().word(), c.getValue());
    }
    g.writeEndObject();
    // Without contexts: a refresh reads up to 1,000 tasks, and their contexts (up to 1 MiB
    // each) would be most of what it carries; `fsm show` has each task's.
    g.writeArrayFieldStart("tasks");
    for (Task t : tasks) {
      g.writeStartObject();
      taskFields(g, t, shown.apply(t), false);
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  /**
   * {@code fsm runners}: the store's time, how many runners serve it now, and every runner seen
   * in the last hour.
   */
  static void runners(JsonGenerator g, RunnerReport report) throws IOException {
    g.writeStartObject();
    g.writeStringField("time", time(report.at()));
    g.writeNumberField("live", report.live().size());
    g.writeArrayFieldStart("runners");
    for (RunnerRecord r : report.runners()) {
      RunnerText.json(g, report, r);
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  /** {@code fsm errors}: the period, the totals and the groups shown (docs/errors.md). */
  static void errors(JsonGenerator g, ErrorReport report) throws IOException {
    g.writeStartObject();
    g.writeStringField("since", time(report.since()));
    g.writeNumberField("errors", report.errors());
    g.writeNumberField("group_count", report.groupCount());
    g.writeArrayFieldStart("groups");
    for (ErrorGroup e : report.groups()) {
      g.writeStartObject();
      g.writeStringField("pattern", e.pattern());
      g.writeStringField("machine", e.machine());
      g.writeStringField("state", e.state());
      g.writeNumberField("count", e.count());
      g.writeNumberField("tasks", e.tasks());
      g.writeStringField("first_seen", time(e.firstSeen()));
      g.writeStringField("last_seen", time(e.lastSeen()));
      g.writeObjectFieldStart("example");
      g.writeStringField("task_id", e.exampleTask());
      g.writeStringField("message", e.example());
      g.writeEndObject();
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  /** What a bulk send changed and what refused it. */
  static void bulkSend(JsonGenerator g, String command, BulkSendReport r) throws IOException {
    g.writeStartObject();
    g.writeStringField("command", command);
    g.writeBooleanField("dry_run", r.dryRun());
    g.writeNumberField("matched", r.matched());
    g.writeArrayFieldStart("changed");
    for (String id : r.changed()) {
      g.writeString(id);
    }
    g.writeEndArray();
    g.writeArrayFieldStart("refused");
    for (BulkSendReport.Refusal x : r.refused()) {
      g.writeStartObject();
      g.writeStringField("id", x.id());
      g.writeStringField("reason", x.reason());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeEndObject();
  }

  /**
   * What a purge deleted or would delete: the total, then counts per machine and status; how
   * many batches and the longest hold of the store's lock.
   */
  static void purge(JsonGenerator g, String olderThan,
      Map<String, Map<TaskStatus, Long>> counts, PurgeReport r) throws IOException {
    g.writeStartObject();
    g.writeBooleanField("dry_run", r.dryRun());
    g.writeStringField("older_than", olderThan);
    g.writeNumberField("purged", r.total());
    g.writeArrayFieldStart("by_machine");
    for (Map.Entry<String, Map<TaskStatus, Long>> m : counts.entrySet()) {
      for (Map.Entry<TaskStatus, Long> c : m.getValue().entrySet()) {
        g.writeStartObject();
        g.writeStringField("machine", m.getKey());
        g.writeStringField("status", c.getKey().word());
        g.writeNumberField("count", c.getValue());
        g.writeEndObject();
      }
    }
    g.writeEndArray();
    g.writeNumberField("batches", r.batches());
    g.writeNumberField("longest_lock_hold_ms", r.longestHold().toNanos() / 1e6);
    g.writeEndObject();
  }

  /** Each state's statistics; every status has a count, zero when none. */
  static void stats(JsonGenerator g, List<StateStats> stats,
      Function<StateStats, Map<ShownStatus, Long>> counts, Map<String, MachineBreaker> breakers)
      throws IOException {
    g.writeStartArray();
    for (StateStats s : stats) {
      g.writeStartObject();
      g.writeStringField("machine", s.machine());
      g.writeStringField("state", s.state());
      g.writeFieldName("counts");
      statusCounts(g, counts.apply(s));
      g.writeNumberField("samples", s.samples());
      millis(g, "p50_ms", s.p50());
      millis(g, "p95_ms", s.p95());
      millis(g, "p99_ms", s.p99());
      g.writeNumberField("error_rate", s.errorRate());
      g.writeStringField("timeout", s.timeout());
      BreakerText.json(g, breakers.get(s.machine()));
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  /**
   * A machine: its file (or null) and whether it differs from the newest version, its versions
   * oldest first with their tasks by status, the newest marked, all its tasks by status, and its
   * circuit breaker.
   */
  static void machine(JsonGenerator g, String name, String file, Boolean fileDiffers,
      List<MachineVersion> versions, Map<ShownStatus, Long> counts,
      Map<String, Map<ShownStatus, Long>> byVersion, MachineBreaker breaker) throws IOException {
    g.writeStartObject();
    g.writeStringField("machine", name);
    g.writeStringField("file", file);
    g.writeFieldName("file_differs");
    if (fileDiffers == null) {
      g.writeNull();
    } else {
      g.writeBoolean(fileDiffers);
    }
    g.writeArrayFieldStart("versions");
    for (int i = 0; i < versions.size(); i++) {
      MachineVersion v = versions.get(i);
      g.writeStartObject();
      g.writeNumberField("number", v.number());
      g.writeStringField("id", v.version());
      g.writeStringField("registered", time(v.registered()));
      g.writeBooleanField("newest", i == versions.size() - 1);
      g.writeFieldName("tasks");
      statusCounts(g, byVersion.getOrDefault(v.version(), Map.of()));
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeFieldName("tasks");
    statusCounts(g, counts);
    BreakerText.json(g, breaker);
    g.writeEndObject();
  }

  private static void taskFields(JsonGenerator g, Task t, ShownStatus shown, boolean context)
      throws IOException {
    g.writeStringField("id", t.id());
    g.writeStringField("machine", t.machine());
    g.writeStringField("version", t.version());
    g.writeStringField("state", t.state());
    g.writeStringField("status", shown.word());
    if (context) {
      g.writeFieldName("context");
      JsonDocument.copy(g, t.context());
    }
    g.writeNumberField("attempt", t.attempt());
    g.writeArrayFieldStart("errors");
    for (TaskError e : t.errors()) {
      g.writeStartObject();
      g.writeStringField("time", time(e.time()));
      g.writeStringField("message", e.message());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeStringField("created", time(t.created()));
    g.writeStringField("state_entered", time(t.stateEntered()));
    g.writeStringField("last_attempt", time(t.lastAttempt()));
    g.writeStringField("due", time(t.due()));
    g.writeStringField("updated", time(t.updated()));
    g.writeFieldName("lease");
    lease(g, t.lease());
    g.writeFieldName("pausing");
    pausing(g, t.pausing());
  }

  /** A pause waiting for the running step ({@code pause --after-step}), or null. */
  private static void pausing(JsonGenerator g, Pausing p) throws IOException {
    if (p == null) {
      g.writeNull();
      return;
    }
    g.writeStartObject();
    g.writeStringField("at", time(p.at()));
    g.writeStringField("by", p.by());
    g.writeStringField("reason", p.reason());
    g.writeEndObject();
  }

  private static void transitionFields(JsonGenerator g, Transition e) throws IOException {
    g.writeStringField("time", time(e.time()));
    g.writeStringField("from", e.from());
    g.writeStringField("event", e.event());
    g.writeStringField("to", e.to());
    g.writeNumberField("duration_ms", e.durationMillis());
    g.writeNumberField("attempt", e.attempt());
    g.writeStringField("by", e.by());
    g.writeStringField("reason", e.reason());
  }

  /** Counts for every status, in status order. */
  private static void statusCounts(JsonGenerator g, Map<ShownStatus, Long> counts)
      throws IOException {
    g.writeStartObject();
    for (ShownStatus s : ShownStatus.values()) {
      g.writeNumberField(s.word(), counts.getOrDefault(s, 0L));
    }
    g.writeEndObject();
  }

  private static void lease(JsonGenerator g, Lease lease) throws IOException {
    if (lease == null) {
      g.writeNull();
      return;
    }
    g.writeStartObject();
    g.writeStringField("owner", lease.owner());
    g.writeStringField("until", time(lease.until()));
    g.writeEndObject();
  }

  private static void millis(JsonGenerator g, String field, Duration d) throws IOException {
    g.writeFieldName(field);
    if (d == null) {
      g.writeNull();
    } else {
      g.writeNumber(d.toMillis());
    }
  }

  /** A time as ISO-8601 UTC to the millisecond, or null. */
  static String time(Instant t) {
    return IsoTime.of(t);
  }
}

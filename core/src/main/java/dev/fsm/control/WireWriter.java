package dev.fsm.control;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.engine.StateStats;
import dev.fsm.operations.BulkSendReport;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.TaskSelector;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Lease;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Writes the protocol's values, field by field, with Jackson's streaming generator. Written
 * straight to the socket, so a bulk start of 100k tasks never exists as one string in memory.
 * Null and empty optionals are written as JSON null; {@link WireReader} reads them back.
 */
final class WireWriter {

  private WireWriter() {}

  static void string(JsonGenerator g, String field, String value) throws IOException {
    g.writeFieldName(field);
    if (value == null) {
      g.writeNull();
    } else {
      g.writeString(value);
    }
  }

  static void optional(JsonGenerator g, String field, Optional<String> value) throws IOException {
    string(g, field, value == null ? null : value.orElse(null));
  }

  static void status(JsonGenerator g, String field, Optional<TaskStatus> value)
      throws IOException {
    string(g, field, value == null || value.isEmpty() ? null : value.get().word());
  }

  static void instant(JsonGenerator g, String field, Instant value) throws IOException {
    g.writeFieldName(field);
    if (value == null) {
      g.writeNull();
    } else {
      g.writeStartArray();
      g.writeNumber(value.getEpochSecond());
      g.writeNumber(value.getNano());
      g.writeEndArray();
    }
  }

  static void duration(JsonGenerator g, String field, Duration value) throws IOException {
    g.writeFieldName(field);
    if (value == null) {
      g.writeNull();
    } else {
      g.writeStartArray();
      g.writeNumber(value.getSeconds());
      g.writeNumber(value.getNano());
      g.writeEndArray();
    }
  }

  static void task(JsonGenerator g, Task t) throws IOException {
    if (t == null) {
      g.writeNull();
      return;
    }
    g.writeStartObject();
    string(g, "id", t.id());
    string(g, "machine", t.machine());
    string(g, "version", t.version());
    string(g, "state", t.state());
    string(g, "status", t.status().word());
    string(g, "context", t.context());
    g.writeNumberField("attempt", t.attempt());
    g.writeArrayFieldStart("errors");
    for (TaskError e : t.errors()) {
      g.writeStartObject();
      instant(g, "time", e.time());
      string(g, "message", e.message());
      g.writeEndObject();
    }
    g.writeEndArray();
    instant(g, "created", t.created());
    instant(g, "stateEntered", t.stateEntered());
    instant(g, "lastAttempt", t.lastAttempt());
    instant(g, "due", t.due());
    g.writeFieldName("lease");
    Lease lease = t.lease();
    if (lease == null) {
      g.writeNull();
    } else {
      g.writeStartObject();
      string(g, "owner", lease.owner());
      instant(g, "until", lease.until());
      g.writeEndObject();
    }
    g.writeEndObject();
  }

  static void tasks(JsonGenerator g, List<Task> tasks) throws IOException {
    g.writeStartArray();
    for (Task t : tasks) {
      task(g, t);
    }
    g.writeEndArray();
  }

  static void transitions(JsonGenerator g, List<Transition> transitions) throws IOException {
    g.writeStartArray();
    for (Transition t : transitions) {
      g.writeStartObject();
      instant(g, "time", t.time());
      string(g, "from", t.from());
      string(g, "event", t.event());
      string(g, "to", t.to());
      g.writeNumberField("durationMillis", t.durationMillis());
      g.writeNumberField("attempt", t.attempt());
      string(g, "by", t.by());
      string(g, "reason", t.reason());
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  static void strings(JsonGenerator g, List<String> strings) throws IOException {
    g.writeStartArray();
    for (String s : strings) {
      g.writeString(s);
    }
    g.writeEndArray();
  }

  static void counts(JsonGenerator g, List<TaskCount> counts) throws IOException {
    g.writeStartArray();
    for (TaskCount c : counts) {
      g.writeStartObject();
      string(g, "machine", c.machine());
      string(g, "state", c.state());
      string(g, "status", c.status().word());
      g.writeNumberField("count", c.count());
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  static void stats(JsonGenerator g, List<StateStats> stats) throws IOException {
    g.writeStartArray();
    for (StateStats s : stats) {
      g.writeStartObject();
      string(g, "machine", s.machine());
      string(g, "state", s.state());
      g.writeObjectFieldStart("counts");
      for (Map.Entry<TaskStatus, Long> e : s.counts().entrySet()) {
        g.writeNumberField(e.getKey().word(), e.getValue());
      }
      g.writeEndObject();
      g.writeNumberField("samples", s.samples());
      duration(g, "p50", s.p50());
      duration(g, "p95", s.p95());
      duration(g, "p99", s.p99());
      g.writeNumberField("errorRate", s.errorRate());
      string(g, "timeout", s.timeout());
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  static void versions(JsonGenerator g, List<MachineVersion> versions) throws IOException {
    g.writeStartArray();
    for (MachineVersion v : versions) {
      g.writeStartObject();
      string(g, "machine", v.machine());
      string(g, "version", v.version());
      g.writeNumberField("number", v.number());
      instant(g, "registered", v.registered());
      string(g, "definition", v.definition());
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  static void report(JsonGenerator g, BulkSendReport r) throws IOException {
    g.writeStartObject();
    g.writeNumberField("matched", r.matched());
    g.writeFieldName("changed");
    strings(g, r.changed());
    g.writeArrayFieldStart("refused");
    for (BulkSendReport.Refusal refusal : r.refused()) {
      g.writeStartObject();
      string(g, "id", refusal.id());
      string(g, "reason", refusal.reason());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeBooleanField("dryRun", r.dryRun());
    g.writeEndObject();
  }

  static void source(JsonGenerator g, MachineSource s) throws IOException {
    g.writeStartObject();
    string(g, "name", s.name());
    string(g, "file", s.file() == null ? null : s.file().toString());
    string(g, "text", s.text());
    g.writeEndObject();
  }

  static void newTasks(JsonGenerator g, List<NewTask> tasks) throws IOException {
    g.writeStartArray();
    for (NewTask t : tasks) {
      g.writeStartObject();
      string(g, "id", t.id());
      string(g, "context", t.context());
      instant(g, "at", t.at());
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  static void selector(JsonGenerator g, TaskSelector s) throws IOException {
    g.writeStartObject();
    string(g, "machine", s.machine());
    optional(g, "state", s.state());
    status(g, "status", s.status());
    g.writeEndObject();
  }

  static void query(JsonGenerator g, TaskQuery q) throws IOException {
    g.writeStartObject();
    optional(g, "machine", q.machine());
    optional(g, "state", q.state());
    status(g, "status", q.status());
    optional(g, "afterId", q.afterId());
    g.writeNumberField("limit", q.limit());
    g.writeStringField("order", q.order().name().toLowerCase(Locale.ROOT));
    g.writeEndObject();
  }
}

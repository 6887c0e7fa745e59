package dev.fsm.store.transfer;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fsm.store.MachineVersion;
import dev.fsm.task.Lease;
import dev.fsm.task.Pausing;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.time.Instant;

/**
 * Writes export records as JSON lines, keys in a fixed order, times as ISO-8601 instants with
 * every digit they have, a task's context as the JSON object it is (its exact text).
 */
public final class TransferWriter {

  private final Writer out;
  private final JsonGenerator g;

  /** A writer onto {@code out}; the caller flushes and closes {@code out}. */
  public TransferWriter(Writer out) {
    this.out = out;
    try {
      this.g = new JsonFactory().createGenerator(out)
          .disable(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM)
          .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
          .setRootValueSeparator(null);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes one record as one line. */
  public void write(TransferRecord record) throws IOException {
    g.writeStartObject();
    if (record instanceof TransferRecord.Header h) {
      g.writeStringField("type", "header");
      g.writeStringField("format", TransferFormat.NAME);
      g.writeNumberField("version", h.version());
      g.writeStringField("fsm", h.fsm());
      g.writeStringField("exported_at", h.exportedAt().toString());
    } else if (record instanceof TransferRecord.Version v) {
      writeVersion(v.version());
    } else if (record instanceof TransferRecord.TaskLine t) {
      writeTask(t.task());
    } else if (record instanceof TransferRecord.End e) {
      g.writeStringField("type", "end");
      g.writeNumberField("machine_versions", e.counts().versions());
      g.writeNumberField("tasks", e.counts().tasks());
      g.writeNumberField("history_entries", e.counts().historyEntries());
    }
    g.writeEndObject();
    g.flush();
    out.write('\n');
  }

  private void writeVersion(MachineVersion v) throws IOException {
    g.writeStringField("type", "machine_version");
    g.writeStringField("machine", v.machine());
    g.writeNumberField("number", v.number());
    g.writeStringField("id", v.version());
    g.writeStringField("registered", v.registered().toString());
    g.writeStringField("definition", v.definition());
  }

  private void writeTask(TaskHistory h) throws IOException {
    Task t = h.task();
    g.writeStringField("type", "task");
    g.writeStringField("id", t.id());
    g.writeStringField("machine", t.machine());
    g.writeStringField("version", t.version());
    g.writeStringField("state", t.state());
    g.writeStringField("status", t.status().word());
    g.writeFieldName("context");
    g.writeRawValue(oneLine(t.context()));
    g.writeNumberField("attempt", t.attempt());
    g.writeArrayFieldStart("errors");
    for (TaskError e : t.errors()) {
      g.writeStartObject();
      g.writeStringField("time", e.time().toString());
      g.writeStringField("message", e.message());
      g.writeEndObject();
    }
    g.writeEndArray();
    g.writeStringField("created", t.created().toString());
    g.writeStringField("state_entered", time(t.stateEntered()));
    g.writeStringField("last_attempt", time(t.lastAttempt()));
    g.writeStringField("due", time(t.due()));
    Lease lease = t.lease();
    if (lease == null) {
      g.writeNullField("lease");
    } else {
      g.writeObjectFieldStart("lease");
      g.writeStringField("owner", lease.owner());
      g.writeStringField("until", lease.until().toString());
      g.writeEndObject();
    }
    Pausing p = t.pausing();
    if (p == null) {
      g.writeNullField("pausing");
    } else {
      g.writeObjectFieldStart("pausing");
      g.writeStringField("at", p.at().toString());
      g.writeStringField("by", p.by());
      g.writeStringField("reason", p.reason());
      g.writeEndObject();
    }
    g.writeStringField("changed", t.changed().toString());
    g.writeArrayFieldStart("history");
    for (Transition e : h.history()) {
      g.writeStartObject();
      g.writeStringField("time", e.time().toString());
      g.writeStringField("from", e.from());
      g.writeStringField("event", e.event());
      g.writeStringField("to", e.to());
      g.writeNumberField("duration_ms", e.durationMillis());
      g.writeNumberField("attempt", e.attempt());
      g.writeStringField("by", e.by());
      g.writeStringField("reason", e.reason());
      g.writeEndObject();
    }
    g.writeEndArray();
  }

  /**
   * The context's text as stored: compact JSON, so on one line, unless a store holds one with
   * line breaks between its tokens (inside strings they are escaped); that one is compacted.
   */
  private static String oneLine(String context) throws IOException {
    if (context.indexOf('\n') < 0 && context.indexOf('\r') < 0) {
      return context;
    }
    return new ObjectMapper().readTree(context).toString();
  }

  private static String time(Instant t) {
    return t == null ? null : t.toString();
  }
}

package dev.fsm.control.wire;

import static dev.fsm.control.wire.Scalars.INSTANT;
import static dev.fsm.control.wire.Scalars.STATUS;
import static dev.fsm.control.wire.Scalars.STRING;
import static dev.fsm.control.wire.Wire.nextField;
import static dev.fsm.control.wire.Wire.nextItem;
import static dev.fsm.control.wire.Wire.string;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.task.Lease;
import dev.fsm.task.Pausing;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskStatus;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The one wire encoding of a {@link Task}, with its errors, lease and pending pause. */
public final class TaskCodec implements Codec<Task> {

  public static final Codec<Task> TASK = new TaskCodec();
  public static final Codec<List<Task>> TASKS = Codec.list(TASK);
  /** A task that may not exist: the task or JSON null. */
  public static final Codec<Optional<Task>> OPTIONAL = Codec.optional(TASK);

  private TaskCodec() {}

  @Override
  public void write(JsonGenerator g, Task t) throws IOException {
    g.writeStartObject();
    STRING.write(g, "id", t.id());
    STRING.write(g, "machine", t.machine());
    STRING.write(g, "version", t.version());
    STRING.write(g, "state", t.state());
    STATUS.write(g, "status", t.status());
    STRING.write(g, "context", t.context());
    g.writeNumberField("attempt", t.attempt());
    g.writeArrayFieldStart("errors");
    for (TaskError e : t.errors()) {
      g.writeStartObject();
      INSTANT.write(g, "time", e.time());
      STRING.write(g, "message", e.message());
      g.writeEndObject();
    }
    g.writeEndArray();
    INSTANT.write(g, "created", t.created());
    INSTANT.write(g, "stateEntered", t.stateEntered());
    INSTANT.write(g, "lastAttempt", t.lastAttempt());
    INSTANT.write(g, "due", t.due());
    g.writeFieldName("lease");
    Lease lease = t.lease();
    if (lease == null) {
      g.writeNull();
    } else {
      g.writeStartObject();
      STRING.write(g, "owner", lease.owner());
      INSTANT.write(g, "until", lease.until());
      g.writeEndObject();
    }
    // Only when set: a task with none reads as it always did.
    Pausing pausing = t.pausing();
    if (pausing != null) {
      g.writeObjectFieldStart("pausing");
      INSTANT.write(g, "at", pausing.at());
      STRING.write(g, "by", pausing.by());
      STRING.write(g, "reason", pausing.reason());
      g.writeEndObject();
    }
    INSTANT.write(g, "changed", t.changed());
    g.writeEndObject();
  }

  @Override
  public Task read(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    String id = null;
    String machine = null;
    String version = null;
    String state = null;
    TaskStatus status = null;
    String context = null;
    int attempt = 0;
    List<TaskError> errors = new ArrayList<>();
    Instant created = null;
    Instant stateEntered = null;
    Instant lastAttempt = null;
    Instant due = null;
    Lease lease = null;
    Pausing pausing = null;
    Instant changed = null;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "id" -> id = string(p);
        case "machine" -> machine = string(p);
        case "version" -> version = string(p);
        case "state" -> state = string(p);
        case "status" -> status = STATUS.read(p);
        case "context" -> context = string(p);
        case "attempt" -> attempt = p.getIntValue();
        case "errors" -> errors = errors(p);
        case "created" -> created = INSTANT.read(p);
        case "stateEntered" -> stateEntered = INSTANT.read(p);
        case "lastAttempt" -> lastAttempt = INSTANT.read(p);
        case "due" -> due = INSTANT.read(p);
        case "lease" -> lease = lease(p);
        case "pausing" -> pausing = pausing(p);
        case "changed" -> changed = INSTANT.read(p);
        default -> p.skipChildren();
      }
    }
    return new Task(id, machine, version, state, status, context, attempt, errors, created,
        stateEntered, lastAttempt, due, lease, pausing, changed);
  }

  private static Pausing pausing(JsonParser p) throws IOException {
    if (p.currentToken() == JsonToken.VALUE_NULL) {
      return null;
    }
    Instant at = null;
    String by = null;
    String reason = null;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "at" -> at = INSTANT.read(p);
        case "by" -> by = string(p);
        case "reason" -> reason = string(p);
        default -> p.skipChildren();
      }
    }
    return new Pausing(at, by, reason);
  }

  private static List<TaskError> errors(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_ARRAY);
    List<TaskError> errors = new ArrayList<>();
    while (nextItem(p)) {
      Instant time = null;
      String message = null;
      while (nextField(p)) {
        switch (p.currentName()) {
          case "time" -> time = INSTANT.read(p);
          case "message" -> message = string(p);
          default -> p.skipChildren();
        }
      }
      errors.add(new TaskError(time, message));
    }
    return errors;
  }

  private static Lease lease(JsonParser p) throws IOException {
    if (p.currentToken() == JsonToken.VALUE_NULL) {
      return null;
    }
    String owner = null;
    Instant until = null;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "owner" -> owner = string(p);
        case "until" -> until = INSTANT.read(p);
        default -> p.skipChildren();
      }
    }
    return new Lease(owner, until);
  }
}

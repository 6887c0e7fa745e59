package dev.fsm.control;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.control.Wire.ProtocolException;
import dev.fsm.task.Lease;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskStatus;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads what {@link WireWriter} wrote. Each method starts with the parser on the value's first
 * token and leaves it on the value's last; fields may come in any order and unknown ones are
 * skipped. Lists are read with plain loops: a lambda's first use would cost the client start-up
 * time. This class holds the primitives and tasks; {@link ResultReader} the other results.
 */
final class WireReader {

  private WireReader() {}

  static String string(JsonParser p) throws IOException {
    if (p.currentToken() == JsonToken.VALUE_NULL) {
      return null;
    }
    Wire.expect(p, JsonToken.VALUE_STRING);
    return p.getText();
  }

  static Instant instant(JsonParser p) throws IOException {
    long[] pair = pair(p);
    return pair == null ? null : Instant.ofEpochSecond(pair[0], pair[1]);
  }

  static Duration duration(JsonParser p) throws IOException {
    long[] pair = pair(p);
    return pair == null ? null : Duration.ofSeconds(pair[0], pair[1]);
  }

  private static long[] pair(JsonParser p) throws IOException {
    if (p.currentToken() == JsonToken.VALUE_NULL) {
      return null;
    }
    Wire.expect(p, JsonToken.START_ARRAY);
    p.nextToken();
    long seconds = p.getLongValue();
    p.nextToken();
    long nanos = p.getLongValue();
    p.nextToken();
    Wire.expect(p, JsonToken.END_ARRAY);
    return new long[] {seconds, nanos};
  }

  static TaskStatus status(JsonParser p) throws IOException {
    String word = string(p);
    if (word == null) {
      return null;
    }
    Optional<TaskStatus> status = TaskStatus.parse(word);
    if (status.isEmpty()) {
      throw new ProtocolException("unknown status " + word);
    }
    return status.get();
  }

  /** Moves to the next field of an object; false at its end. */
  static boolean nextField(JsonParser p) throws IOException {
    JsonToken t = p.nextToken();
    if (t == JsonToken.END_OBJECT) {
      return false;
    }
    if (t != JsonToken.FIELD_NAME) {
      throw new ProtocolException("expected a field but found " + t);
    }
    p.nextToken();
    return true;
  }

  /** Moves to the next item of an array; false at its end. */
  static boolean nextItem(JsonParser p) throws IOException {
    return p.nextToken() != JsonToken.END_ARRAY;
  }

  static Task task(JsonParser p) throws IOException {
    if (p.currentToken() == JsonToken.VALUE_NULL) {
      return null;
    }
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
    while (nextField(p)) {
      switch (p.currentName()) {
        case "id" -> id = string(p);
        case "machine" -> machine = string(p);
        case "version" -> version = string(p);
        case "state" -> state = string(p);
        case "status" -> status = status(p);
        case "context" -> context = string(p);
        case "attempt" -> attempt = p.getIntValue();
        case "errors" -> errors = errors(p);
        case "created" -> created = instant(p);
        case "stateEntered" -> stateEntered = instant(p);
        case "lastAttempt" -> lastAttempt = instant(p);
        case "due" -> due = instant(p);
        case "lease" -> lease = lease(p);
        default -> p.skipChildren();
      }
    }
    return new Task(id, machine, version, state, status, context, attempt, errors, created,
        stateEntered, lastAttempt, due, lease);
  }

  private static List<TaskError> errors(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_ARRAY);
    List<TaskError> errors = new ArrayList<>();
    while (nextItem(p)) {
      Instant time = null;
      String message = null;
      while (nextField(p)) {
        switch (p.currentName()) {
          case "time" -> time = instant(p);
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
        case "until" -> until = instant(p);
        default -> p.skipChildren();
      }
    }
    return new Lease(owner, until);
  }

  static List<Task> tasks(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_ARRAY);
    List<Task> tasks = new ArrayList<>();
    while (nextItem(p)) {
      tasks.add(task(p));
    }
    return tasks;
  }

  static TaskStatus status(String word) throws ProtocolException {
    Optional<TaskStatus> status = TaskStatus.parse(word);
    if (status.isEmpty()) {
      throw new ProtocolException("unknown status " + word);
    }
    return status.get();
  }
}

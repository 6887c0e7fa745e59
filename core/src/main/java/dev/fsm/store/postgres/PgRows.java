package dev.fsm.store.postgres;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.task.Lease;
import dev.fsm.task.Pausing;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/**
 * Tasks and history entries as rows, and back: every field kept exactly (times to the
 * microsecond, which is what PostgreSQL keeps; fsm's clock for this store ticks in microseconds).
 */
final class PgRows {

  /** The task columns a row is read from, in {@link #task} order. */
  static final String TASK_COLUMNS = "id, machine, version, state, status, context, attempt,"
      + " errors, created, state_entered, last_attempt, due, lease_owner, lease_until,"
      + " pausing_at, pausing_by, pausing_reason, changed";

  /** How many columns {@link #TASK_COLUMNS} names: a column selected after them is the next. */
  static final int TASK_COLUMN_COUNT = TASK_COLUMNS.split(", ").length;

  /**
   * The columns {@link #bindFields} binds, in order: everything but the id; then {@code changed},
   * which {@link PgTaskColumns} binds when the schema has it.
   */
  static final String FIELD_COLUMNS = "machine, version, state, status, context, attempt,"
      + " errors, created, state_entered, last_attempt, due, lease_owner, lease_until,"
      + " pausing_at, pausing_by, pausing_reason, visible_at, changed";

  /** The history columns a row is read from, in {@link #transition} order. */
  static final String TRANSITION_COLUMNS = "time, from_state, event, to_state, duration_ms,"
      + " attempt, actor, reason";

  private static final JsonFactory JSON = new JsonFactory();

  private PgRows() {}

  /**
   * The claim key of a task: when a claim may take it (its due time, or its lease's end if
   * later), or null when no claim ever takes it as it is (paused, terminal, nothing due).
   */
  static Instant visibleAt(Task t) {
    if (t.due() == null || t.status().isTerminal() || t.status() == TaskStatus.PAUSED) {
      return null;
    }
    if (t.lease() != null && t.lease().until().isAfter(t.due())) {
      return t.lease().until();
    }
    return t.due();
  }

  /**
   * Binds a task's fields but its id and last change to {@code s} from parameter {@code first};
   * the next. Use {@link PgTaskColumns#bind}, which knows whether the schema keeps the change.
   */
  static int bindFields(PreparedStatement s, int first, Task t) throws SQLException {
    int i = first;
    s.setString(i++, t.machine());
    s.setString(i++, t.version());
    s.setString(i++, t.state());
    s.setString(i++, t.status().word());
    s.setString(i++, t.context());
    s.setInt(i++, t.attempt());
    s.setString(i++, errors(t.errors()));
    setTime(s, i++, t.created());
    setTime(s, i++, t.stateEntered());
    setTime(s, i++, t.lastAttempt());
    setTime(s, i++, t.due());
    s.setString(i++, t.lease() == null ? null : t.lease().owner());
    setTime(s, i++, t.lease() == null ? null : t.lease().until());
    Pausing p = t.pausing();
    setTime(s, i++, p == null ? null : p.at());
    s.setString(i++, p == null ? null : p.by());
    s.setString(i++, p == null ? null : p.reason());
    setTime(s, i++, visibleAt(t));
    return i;
  }

  /** The task in the current row, read from {@link #TASK_COLUMNS} starting at column 1. */
  static Task task(ResultSet r) throws SQLException {
    String owner = r.getString(13);
    Instant pausingAt = time(r, 15);
    return new Task(r.getString(1), r.getString(2), r.getString(3), r.getString(4),
        status(r.getString(5)), r.getString(6), r.getInt(7), errors(r.getString(8)),
        time(r, 9), time(r, 10), time(r, 11), time(r, 12),
        owner == null ? null : new Lease(owner, time(r, 14)),
        pausingAt == null ? null : new Pausing(pausingAt, r.getString(16), r.getString(17)),
        time(r, 18));
  }

  /** Binds a history entry's {@link #TRANSITION_COLUMNS} from parameter {@code first}. */
  static void bindTransition(PreparedStatement s, int first, Transition e) throws SQLException {
    int i = first;
    setTime(s, i++, e.time());
    s.setString(i++, e.from());
    s.setString(i++, e.event());
    s.setString(i++, e.to());
    s.setLong(i++, e.durationMillis());
    s.setInt(i++, e.attempt());
    s.setString(i++, e.by());
    s.setString(i, e.reason());
  }

  /** The history entry in the current row, read from {@link #TRANSITION_COLUMNS} at 1. */
  static Transition transition(ResultSet r) throws SQLException {
    return new Transition(time(r, 1), r.getString(2), r.getString(3), r.getString(4),
        r.getLong(5), r.getInt(6), r.getString(7), r.getString(8));
  }

  /** An instant as the server keeps it: to the microsecond. */
  static Instant micros(Instant t) {
    return t == null ? null : t.truncatedTo(ChronoUnit.MICROS);
  }

  static void setTime(PreparedStatement s, int i, Instant t) throws SQLException {
    if (t == null) {
      s.setNull(i, Types.TIMESTAMP_WITH_TIMEZONE);
    } else {
      s.setObject(i, OffsetDateTime.ofInstant(micros(t), ZoneOffset.UTC));
    }
  }

  static Instant time(ResultSet r, int i) throws SQLException {
    OffsetDateTime t = r.getObject(i, OffsetDateTime.class);
    return t == null ? null : t.toInstant();
  }

  static TaskStatus status(String word) {
    return TaskStatus.parse(word).orElseThrow(() -> new IllegalStateException(
        "a task row has the unknown status `" + word + "`"));
  }

  static String errors(List<TaskError> errors) {
    if (errors.isEmpty()) {
      return "[]";
    }
    StringWriter out = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartArray();
      for (TaskError e : errors) {
        g.writeStartObject();
        g.writeStringField("time", micros(e.time()).toString());
        g.writeStringField("message", e.message());
        g.writeEndObject();
      }
      g.writeEndArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  static List<TaskError> errors(String json) {
    if (json.equals("[]")) {
      return List.of();
    }
    List<TaskError> errors = new ArrayList<>();
    try (JsonParser p = JSON.createParser(json)) {
      p.nextToken();
      while (p.nextToken() == JsonToken.START_OBJECT) {
        Instant time = null;
        String message = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
          String field = p.currentName();
          p.nextToken();
          if (field.equals("time")) {
            time = Instant.parse(p.getText());
          } else if (field.equals("message")) {
            message = p.getText();
          } else {
            p.skipChildren();
          }
        }
        errors.add(new TaskError(time, message));
      }
    } catch (IOException e) {
      throw new UncheckedIOException("a task row's errors are not JSON: " + json, e);
    }
    return errors;
  }
}

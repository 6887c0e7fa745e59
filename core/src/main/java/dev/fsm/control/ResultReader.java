package dev.fsm.control;

import static dev.fsm.control.WireReader.duration;
import static dev.fsm.control.WireReader.instant;
import static dev.fsm.control.WireReader.nextField;
import static dev.fsm.control.WireReader.nextItem;
import static dev.fsm.control.WireReader.status;
import static dev.fsm.control.WireReader.string;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.fsm.engine.StateStats;
import dev.fsm.operations.BulkSendReport;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.TaskCount;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Reads the query results {@link WireWriter} wrote, other than tasks ({@link WireReader}). */
final class ResultReader {

  private ResultReader() {}

  static List<Transition> transitions(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_ARRAY);
    List<Transition> transitions = new ArrayList<>();
    while (nextItem(p)) {
      Instant time = null;
      String from = null;
      String event = null;
      String to = null;
      long durationMillis = 0;
      int attempt = 0;
      String by = null;
      String reason = null;
      while (nextField(p)) {
        switch (p.currentName()) {
          case "time" -> time = instant(p);
          case "from" -> from = string(p);
          case "event" -> event = string(p);
          case "to" -> to = string(p);
          case "durationMillis" -> durationMillis = p.getLongValue();
          case "attempt" -> attempt = p.getIntValue();
          case "by" -> by = string(p);
          case "reason" -> reason = string(p);
          default -> p.skipChildren();
        }
      }
      transitions.add(new Transition(time, from, event, to, durationMillis, attempt, by, reason));
    }
    return transitions;
  }

  static List<String> strings(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_ARRAY);
    List<String> strings = new ArrayList<>();
    while (nextItem(p)) {
      strings.add(string(p));
    }
    return strings;
  }

  static List<TaskCount> counts(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_ARRAY);
    List<TaskCount> counts = new ArrayList<>();
    while (nextItem(p)) {
      String machine = null;
      String state = null;
      TaskStatus status = null;
      long count = 0;
      while (nextField(p)) {
        switch (p.currentName()) {
          case "machine" -> machine = string(p);
          case "state" -> state = string(p);
          case "status" -> status = status(p);
          case "count" -> count = p.getLongValue();
          default -> p.skipChildren();
        }
      }
      counts.add(new TaskCount(machine, state, status, count));
    }
    return counts;
  }

  static List<StateStats> stats(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_ARRAY);
    List<StateStats> stats = new ArrayList<>();
    while (nextItem(p)) {
      String machine = null;
      String state = null;
      Map<TaskStatus, Long> counts = new EnumMap<>(TaskStatus.class);
      long samples = 0;
      Duration p50 = null;
      Duration p95 = null;
      Duration p99 = null;
      double errorRate = 0;
      String timeout = null;
      while (nextField(p)) {
        switch (p.currentName()) {
          case "machine" -> machine = string(p);
          case "state" -> state = string(p);
          case "counts" -> {
            while (nextField(p)) {
              counts.put(status(p.currentName()), p.getLongValue());
            }
          }
          case "samples" -> samples = p.getLongValue();
          case "p50" -> p50 = duration(p);
          case "p95" -> p95 = duration(p);
          case "p99" -> p99 = duration(p);
          // Non-finite doubles travel as strings ("NaN"), JSON having no literal for them.
          case "errorRate" -> errorRate = p.currentToken() == JsonToken.VALUE_STRING
              ? Double.parseDouble(p.getText()) : p.getDoubleValue();
          case "timeout" -> timeout = string(p);
          default -> p.skipChildren();
        }
      }
      stats.add(new StateStats(machine, state, counts, samples, p50, p95, p99, errorRate,
          timeout));
    }
    return stats;
  }

  static List<MachineVersion> versions(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_ARRAY);
    List<MachineVersion> versions = new ArrayList<>();
    while (nextItem(p)) {
      String machine = null;
      String version = null;
      int number = 0;
      Instant registered = null;
      String definition = null;
      while (nextField(p)) {
        switch (p.currentName()) {
          case "machine" -> machine = string(p);
          case "version" -> version = string(p);
          case "number" -> number = p.getIntValue();
          case "registered" -> registered = instant(p);
          case "definition" -> definition = string(p);
          default -> p.skipChildren();
        }
      }
      versions.add(new MachineVersion(machine, version, number, registered, definition));
    }
    return versions;
  }

  static BulkSendReport report(JsonParser p) throws IOException {
    Wire.expect(p, JsonToken.START_OBJECT);
    int matched = 0;
    List<String> changed = List.of();
    List<BulkSendReport.Refusal> refused = new ArrayList<>();
    boolean dryRun = false;
    while (nextField(p)) {
      switch (p.currentName()) {
        case "matched" -> matched = p.getIntValue();
        case "changed" -> changed = strings(p);
        case "refused" -> {
          Wire.expect(p, JsonToken.START_ARRAY);
          while (nextItem(p)) {
            String id = null;
            String reason = null;
            while (nextField(p)) {
              switch (p.currentName()) {
                case "id" -> id = string(p);
                case "reason" -> reason = string(p);
                default -> p.skipChildren();
              }
            }
            refused.add(new BulkSendReport.Refusal(id, reason));
          }
        }
        case "dryRun" -> dryRun = p.getBooleanValue();
        default -> p.skipChildren();
      }
    }
    return new BulkSendReport(matched, changed, refused, dryRun);
  }
}

package dev.fsm.cli.verb.task;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fsm.operations.BulkSendReport;
import dev.fsm.engine.StateStats;
import dev.fsm.store.MachineVersion;
import dev.fsm.task.Lease;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON shapes of tasks, histories and the task verbs' reports: the one place their keys are
 * written, so every verb prints the same stable document. Times are ISO-8601 in UTC.
 */
public final class TaskJson {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private TaskJson() {}

  /** A task: its snapshot, with the context as a JSON object. */
  public static Map<String, Object> task(Task t) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("id", t.id());
    doc.put("machine", t.machine());
    doc.put("version", t.version());
    doc.put("state", t.state());
    doc.put("status", t.status().word());
    doc.put("context", context(t.context()));
    doc.put("attempt", t.attempt());
    doc.put("errors", t.errors().stream().map(TaskJson::error).toList());
    doc.put("created", time(t.created()));
    doc.put("state_entered", time(t.stateEntered()));
    doc.put("last_attempt", time(t.lastAttempt()));
    doc.put("due", time(t.due()));
    doc.put("lease", lease(t.lease()));
    return doc;
  }

  /** A task with its history, for {@code fsm show}. */
  public static Map<String, Object> taskWithHistory(Task t, List<Transition> history) {
    Map<String, Object> doc = task(t);
    doc.put("history", history(history));
    return doc;
  }

  /** A history, oldest first. */
  public static List<Map<String, Object>> history(List<Transition> history) {
    return history.stream().map(TaskJson::transition).toList();
  }

  /** One history entry. */
  public static Map<String, Object> transition(Transition e) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("time", time(e.time()));
    doc.put("from", e.from());
    doc.put("event", e.event());
    doc.put("to", e.to());
    doc.put("duration_ms", e.durationMillis());
    doc.put("attempt", e.attempt());
    doc.put("by", e.by());
    doc.put("reason", e.reason());
    return doc;
  }

  /** What a bulk send changed and what refused it. */
  public static Map<String, Object> bulkSend(String command, BulkSendReport r) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("command", command);
    doc.put("dry_run", r.dryRun());
    doc.put("matched", r.matched());
    doc.put("changed", r.changed());
    doc.put("refused", r.refused().stream().map(x -> {
      Map<String, Object> refusal = new LinkedHashMap<>();
      refusal.put("id", x.id());
      refusal.put("reason", x.reason());
      return refusal;
    }).toList());
    return doc;
  }

  /** One state's statistics; every status has a count, zero when none. */
  public static Map<String, Object> stats(StateStats s) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("machine", s.machine());
    doc.put("state", s.state());
    doc.put("counts", statusCounts(s.counts()));
    doc.put("samples", s.samples());
    doc.put("p50_ms", millis(s.p50()));
    doc.put("p95_ms", millis(s.p95()));
    doc.put("p99_ms", millis(s.p99()));
    doc.put("error_rate", s.errorRate());
    doc.put("timeout", s.timeout());
    return doc;
  }

  /** A machine: its file, its versions oldest first, and its tasks by status. */
  public static Map<String, Object> machine(String name, String file,
      List<MachineVersion> versions, Map<TaskStatus, Long> counts) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("machine", name);
    doc.put("file", file);
    doc.put("versions", versions.stream().map(v -> {
      Map<String, Object> version = new LinkedHashMap<>();
      version.put("number", v.number());
      version.put("id", v.version());
      version.put("registered", time(v.registered()));
      return version;
    }).toList());
    doc.put("tasks", statusCounts(counts));
    return doc;
  }

  /** Counts for every status, in status order. */
  static Map<String, Long> statusCounts(Map<TaskStatus, Long> counts) {
    Map<String, Long> doc = new LinkedHashMap<>();
    for (TaskStatus s : TaskStatus.values()) {
      doc.put(s.word(), counts.getOrDefault(s, 0L));
    }
    return doc;
  }

  /** A time as ISO-8601 UTC to the millisecond, or null. */
  static String time(Instant t) {
    return JsonTime.of(t);
  }

  private static Long millis(Duration d) {
    return d == null ? null : d.toMillis();
  }

  private static Map<String, Object> error(TaskError e) {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("time", time(e.time()));
    doc.put("message", e.message());
    return doc;
  }

  private static Map<String, Object> lease(Lease lease) {
    if (lease == null) {
      return null;
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("owner", lease.owner());
    doc.put("until", time(lease.until()));
    return doc;
  }

  /** The stored context as a JSON tree, so it prints as an object rather than a string. */
  private static JsonNode context(String text) {
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a stored context is not JSON", e);
    }
  }
}

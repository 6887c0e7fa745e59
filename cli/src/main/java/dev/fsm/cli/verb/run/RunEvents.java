package dev.fsm.cli.verb.run;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.cli.common.IsoTime;
import dev.fsm.engine.Breaker;
import dev.fsm.engine.RunListener;
import dev.fsm.engine.ShownStatuses;
import dev.fsm.model.Durations;
import dev.fsm.store.MachineVersion;
import dev.fsm.task.AttemptErrors;
import dev.fsm.task.Change;
import dev.fsm.task.Task;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * {@code fsm run --output json}: one JSON object a line on stdout for every transition the runner
 * records and every runner event, each with a {@code type} and a {@code time}; the keys are
 * stable and documented in docs/run-events.md. Human messages stay on stderr.
 */
final class RunEvents implements RunListener {

  private static final JsonFactory JSON = new JsonFactory();

  /** Writes the fields of one line after its type and time. */
  @FunctionalInterface
  interface Fields {
    void write(JsonGenerator g) throws IOException;
  }

  private final PrintWriter out;
  private final Clock clock;
  private final Function<String, List<MachineVersion>> versions;
  /** Machine versions {@link #shown} has read: a version registered later makes it read again. */
  private final Set<String> versionsSeen = new HashSet<>();
  private ShownStatuses shown;

  /** Lines to {@code out}; statuses shown as {@code fsm ls} shows them, from {@code versions}. */
  RunEvents(PrintWriter out, Clock clock, Function<String, List<MachineVersion>> versions) {
    this.out = out;
    this.clock = clock;
    this.versions = versions;
  }

  /** The runner started: where, how and who. */
  void started(RunStart s) {
    line("started", clock.instant(), g -> {
      g.writeStringField("runner", s.runner());
      g.writeNumberField("pid", ProcessHandle.current().pid());
      g.writeStringField("host", s.host());
      g.writeStringField("store", s.store());
      g.writeStringField("store_kind", s.storeKind());
      g.writeNumberField("workers", s.workers());
      g.writeStringField("mode", s.mode());
      g.writeArrayFieldStart("machines");
      for (String m : s.machines()) {
        g.writeString(m);
      }
      g.writeEndArray();
      g.writeNumberField("lease_ms", s.lease().toMillis());
      g.writeNumberField("grace_ms", s.grace().toMillis());
      g.writeStringField("metrics", s.metrics());
      g.writeStringField("version", s.version());
    });
  }

  /** A signal asked the runner to stop: gracefully, or at once on the second. */
  void stopping(int running, boolean atOnce) {
    line("stopping", clock.instant(), g -> {
      g.writeNumberField("running", running);
      g.writeBooleanField("at_once", atOnce);
    });
  }

  /** The runner stopped: what it did. */
  void stopped(long transitions, long errors, Duration took) {
    line("stopped", clock.instant(), g -> {
      g.writeNumberField("transitions", transitions);
      g.writeNumberField("errors", errors);
      g.writeNumberField("duration_ms", took.toMillis());
    });
  }

  @Override
  public void recorded(Change change) {
    Task task = change.next();
    Transition t = change.entry();
    String status = status(task);
    line("transition", t.time(), g -> {
      g.writeStringField("task", task.id());
      g.writeStringField("machine", task.machine());
      g.writeStringField("version", task.version());
      g.writeStringField("from", t.from());
      g.writeStringField("event", t.event());
      g.writeStringField("to", t.to());
      g.writeStringField("status", status);
      g.writeNumberField("duration_ms", t.durationMillis());
      g.writeNumberField("attempt", t.attempt());
      g.writeStringField("by", t.by());
      g.writeStringField("reason", t.reason());
      g.writeStringField("error", AttemptErrors.isError(t) ? t.reason() : null);
    });
  }

  @Override
  public void discarded(String taskId, String why) {
    line("discarded", clock.instant(), g -> {
      g.writeStringField("task", taskId);
      g.writeStringField("message", why);
    });
  }

  @Override
  public void breaker(String machine, Breaker.Change change) {
    Breaker.Status s = change.status();
    line(change.opened() ? "breaker_opened" : "breaker_closed", clock.instant(), g -> {
      g.writeStringField("machine", machine);
      g.writeStringField("state", s.phase().word());
      g.writeNumberField("error_rate", s.errorRate());
      g.writeNumberField("attempts", s.attempts());
      g.writeBooleanField("probe_failed", change.probeFailed());
      g.writeStringField("until", time(s.until()));
    });
  }

  @Override
  public void problem(String message) {
    problem(Topic.OTHER, message);
  }

  @Override
  public void problem(Topic topic, String message) {
    String type = switch (topic) {
      case OTHER -> "problem";
      case LEASE -> "lease_problem";
      case STORE_UNAVAILABLE -> "store_unavailable";
      case STORE_AVAILABLE -> "store_available";
    };
    line(type, clock.instant(), g -> g.writeStringField("message", message));
  }

  @Override
  public void purged(String machine, Duration retention, long tasks) {
    line("purged", clock.instant(), g -> {
      g.writeStringField("machine", machine);
      g.writeStringField("retention", Durations.format(retention));
      g.writeNumberField("tasks", tasks);
    });
  }

  /** The status as {@code fsm ls} shows it: {@code waiting} for a task awaiting a signal. */
  private synchronized String status(Task task) {
    boolean newVersion = versionsSeen.add(task.machine() + "@" + task.version());
    if (shown == null || newVersion) {
      shown = new ShownStatuses(versions);
    }
    return shown.of(task).word();
  }

  private void line(String type, Instant time, Fields fields) {
    StringWriter text = new StringWriter();
    try (JsonGenerator g = JSON.createGenerator(text)) {
      g.writeStartObject();
      g.writeStringField("type", type);
      g.writeStringField("time", time(time));
      fields.write(g);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write a JSON event line", e);
    }
    synchronized (out) {
      out.println(text);
      out.flush();
    }
  }

  private static String time(Instant t) {
    return IsoTime.of(t);
  }
}

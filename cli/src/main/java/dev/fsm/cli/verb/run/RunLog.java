package dev.fsm.cli.verb.run;

import dev.fsm.cli.common.IsoTime;
import dev.fsm.engine.Breaker;
import dev.fsm.engine.RunListener;
import dev.fsm.model.Durations;
import dev.fsm.task.Change;
import dev.fsm.task.Transition;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.temporal.ChronoUnit;

/** What {@code fsm run} prints as it works: problems to stderr; with -v, a line per transition. */
record RunLog(PrintWriter out, PrintWriter err, boolean verbose) implements RunListener {
  @Override
  public void recorded(Change change) {
    if (!verbose) {
      return;
    }
    Transition t = change.entry();
    String line = IsoTime.of(t.time()) + " " + change.next().id() + " "
        + change.next().machine() + ": " + t.from() + " --" + t.event() + "--> " + t.to()
        + " [" + change.next().status().word() + "] " + t.durationMillis() + "ms"
        + (t.reason().isEmpty() ? "" : " (" + t.reason() + ")");
    synchronized (out) {
      out.println(line);
      out.flush();
    }
  }

  @Override
  public void discarded(String taskId, String why) {
    if (verbose) {
      synchronized (err) {
        err.println("fsm run: task `" + taskId + "`: attempt not recorded: " + why);
        err.flush();
      }
    }
  }

  /** Always shown: an operator must see why a machine's tasks stopped starting. */
  @Override
  public void breaker(String machine, Breaker.Change change) {
    Breaker.Status s = change.status();
    String line;
    if (!change.opened()) {
      line = "breaker of machine `" + machine + "` closed: the probe attempt succeeded;"
          + " its tasks start again";
    } else {
      String why = change.probeFailed() ? "opened again: the probe attempt failed"
          : "opened: " + Math.round(s.errorRate() * 100) + "% of the last " + s.attempts()
              + " attempts were errors";
      line = "breaker of machine `" + machine + "` " + why + "; no attempt of it starts until "
          + s.until().truncatedTo(ChronoUnit.SECONDS) + ", then one probe";
    }
    synchronized (err) {
      err.println("fsm run: " + line);
      err.flush();
    }
  }

  @Override
  public void purged(String machine, Duration retention, long tasks) {
    synchronized (err) {
      err.println("fsm run: retention: purged " + tasks + (tasks == 1 ? " task" : " tasks")
          + " of " + machine + " terminal for more than " + Durations.format(retention));
      err.flush();
    }
  }

  @Override
  public void problem(String message) {
    synchronized (err) {
      err.println("fsm run: " + message);
      err.flush();
    }
  }
}

package dev.fsm.cli.verb.run;

import dev.fsm.engine.Runner;
import java.io.PrintWriter;
import java.util.concurrent.atomic.AtomicInteger;
import sun.misc.Signal;

/**
 * How {@code fsm run} stops: the first SIGINT or SIGTERM stops claiming and lets running actions
 * finish; the second stops at once. Each is said on stderr and, with JSON output, as a
 * {@code stopping} line.
 */
final class StopOnSignals {

  private StopOnSignals() {}

  /** Handles SIGINT and SIGTERM for {@code runner}; {@code events} is null without JSON. */
  static void install(Runner runner, PrintWriter err, RunEvents events) {
    AtomicInteger received = new AtomicInteger();
    for (String name : new String[] {"INT", "TERM"}) {
      Signal.handle(new Signal(name), s -> {
        int running = runner.running();
        boolean first = received.incrementAndGet() == 1;
        if (first) {
          err.println();
          err.println("fsm run: stopping: letting " + running
              + " running action(s) finish; Ctrl-C again to stop at once");
        } else {
          err.println("fsm run: stopping at once");
        }
        err.flush();
        if (events != null) {
          events.stopping(running, !first);
        }
        if (first) {
          runner.stop();
        } else {
          runner.stopNow();
        }
      });
    }
  }
}

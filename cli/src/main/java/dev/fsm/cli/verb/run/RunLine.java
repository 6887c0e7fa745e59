package dev.fsm.cli.verb.run;

import dev.fsm.Timers;
import dev.fsm.engine.RunCounters;
import dev.fsm.engine.Runner;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** The runner's live one-line summary, redrawn on a terminal four times a second. */
final class RunLine implements AutoCloseable {

  private final PrintWriter err;
  private final Runner runner;
  private final ScheduledExecutorService timer;
  private final long startNanos = System.nanoTime();
  private long lastTransitions;
  private long lastNanos = startNanos;
  private double rate;

  RunLine(PrintWriter err, Runner runner) {
    this.err = err;
    this.runner = runner;
    this.timer = Timers.daemon("fsm-run-line");
    timer.scheduleAtFixedRate(this::draw, 250, 250, TimeUnit.MILLISECONDS);
  }

  private synchronized void draw() {
    err.print("\r\u001b[2K" + text());
    err.flush();
  }

  /** The summary: running actions, transitions and their rate, errors. */
  synchronized String text() {
    RunCounters c = runner.counters();
    long now = System.nanoTime();
    long transitions = c.transitions();
    double seconds = (now - lastNanos) / 1e9;
    if (seconds >= 0.2) {
      double current = (transitions - lastTransitions) / seconds;
      rate = rate == 0 ? current : 0.7 * rate + 0.3 * current;
      lastTransitions = transitions;
      lastNanos = now;
    }
    return String.format(Locale.ROOT, "running %d · %,d transitions (%,.0f/s) · %,d errors · %s",
        runner.running(), transitions, rate, c.errors(), elapsed(now - startNanos));
  }

  private static String elapsed(long nanos) {
    long s = TimeUnit.NANOSECONDS.toSeconds(nanos);
    return s < 60 ? s + "s" : s < 3600 ? (s / 60) + "m" + (s % 60) + "s"
        : (s / 3600) + "h" + (s % 3600 / 60) + "m";
  }

  @Override
  public synchronized void close() {
    timer.shutdownNow();
    err.print("\r\u001b[2K");
    err.flush();
  }
}

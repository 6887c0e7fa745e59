package dev.fsm;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** Background threads that repeat a small task: daemons, so none keeps a process alive. */
public final class Timers {

  private Timers() {}

  /** A timer on one daemon thread named {@code name}. */
  public static ScheduledExecutorService daemon(String name) {
    return Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * Stops {@code timer} and waits up to {@code wait} for a run under way to end, without
   * interrupting it: an interrupt closes whatever NIO channel that run is writing.
   */
  public static void stop(ScheduledExecutorService timer, Duration wait) {
    timer.shutdown();
    try {
      timer.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

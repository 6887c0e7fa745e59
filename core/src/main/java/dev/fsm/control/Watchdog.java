package dev.fsm.control;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Closes a client's channel when the server has been silent too long. Socket channels have no
 * read timeout, and a selector would cost the client start-up time; closing the channel wakes a
 * blocked read or write with an exception. The server's heartbeats count as progress, so a long
 * bulk start never times out while its runner is alive.
 */
final class Watchdog extends Thread {

  private final Closeable target;
  private long silenceNanos;
  private long deadline;
  private boolean armed;
  private boolean fired;
  private boolean stopped;

  Watchdog(Closeable target, long silenceNanos) {
    super("fsm-control-watchdog");
    setDaemon(true);
    this.target = target;
    this.silenceNanos = silenceNanos;
  }

  /** Starts counting: a request is on its way, and may be silent this long between bytes. */
  synchronized void arm(long silenceNanos) {
    this.silenceNanos = silenceNanos;
    deadline = System.nanoTime() + silenceNanos;
    armed = true;
    notifyAll();
  }

  /** Bytes moved: the count starts again. */
  synchronized void progress() {
    deadline = System.nanoTime() + silenceNanos;
  }

  /** The answer arrived. */
  synchronized void disarm() {
    armed = false;
  }

  /** True when it closed the channel. */
  synchronized boolean fired() {
    return fired;
  }

  synchronized void shutdown() {
    stopped = true;
    notifyAll();
  }

  @Override
  public synchronized void run() {
    try {
      while (!stopped) {
        if (!armed) {
          wait();
          continue;
        }
        long left = deadline - System.nanoTime();
        if (left > 0) {
          TimeUnit.NANOSECONDS.timedWait(this, left);
          continue;
        }
        fired = true;
        armed = false;
        try {
          target.close();
        } catch (IOException e) {
          // The blocked call fails either way, which is all that matters.
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

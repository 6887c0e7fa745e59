package dev.fsm.engine;

import java.time.Duration;

/**
 * How the runner's claim loop sleeps until there is something to do: a wake given while it was
 * awake is kept, so the next sleep returns at once and no wake is lost between a check and the
 * sleep that follows it.
 */
final class WakeSignal {

  private final Object monitor = new Object();
  private boolean woken;

  /** Ends the current sleep, or the next one if none is under way. */
  void wake() {
    synchronized (monitor) {
      woken = true;
      monitor.notifyAll();
    }
  }

  /**
   * Sleeps for {@code wait} (at least a millisecond) or until woken.
   *
   * @return false when the thread was interrupted, which the caller takes as a stop
   */
  boolean sleep(Duration wait) {
    long millis = Math.max(1, wait.toMillis());
    synchronized (monitor) {
      try {
        if (!woken) {
          monitor.wait(millis);
        }
        return true;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      } finally {
        woken = false;
      }
    }
  }
}

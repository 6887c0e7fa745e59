package dev.fsm.action.supervisor;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * The lease deadline a runner last gave its supervisor, on the supervisor's monotonic clock (so
 * no wall-clock skew): when it passes with no newer one, the runner's programs are stopped; the
 * supervisor then waits for a newer deadline, as the runner may come back. Thread-safe.
 */
final class DeadlineWatch implements Runnable {

  /** How long a line the runner already wrote may take to be read before the sweep goes on. */
  private static final int LINE_WAITS = 40;

  private final Sweep sweep;
  private final InputStream in;
  private final IntConsumer stopped;
  private final Object lock = new Object();
  private long deadline;
  private boolean set;
  private long generation;
  private boolean closed;

  /**
   * @param in the runner's pipe, read by another thread; asked only whether a line is waiting
   * @param stopped told how many processes a passed deadline stopped, when any
   */
  DeadlineWatch(Sweep sweep, InputStream in, IntConsumer stopped) {
    this.sweep = sweep;
    this.in = in;
    this.stopped = stopped;
  }

  /** The runner's programs must be gone {@code millis} from now unless a newer deadline comes. */
  void deadline(long millis) {
    synchronized (lock) {
      deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
      set = true;
      generation++;
      lock.notifyAll();
    }
  }

  /** The runner holds no lease: no deadline until it gives one. */
  void idle() {
    synchronized (lock) {
      set = false;
      generation++;
      lock.notifyAll();
    }
  }

  /** Stops watching: the runner said goodbye or is gone. */
  void close() {
    synchronized (lock) {
      closed = true;
      lock.notifyAll();
    }
  }

  @Override
  public void run() {
    try {
      while (true) {
        long passed = awaitPassed();
        if (passed < 0) {
          return;
        }
        if (newerComing(passed)) {
          continue;
        }
        int n = sweep.run(() -> generation() == passed);
        if (n > 0) {
          stopped.accept(n);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Waits for the deadline to pass; its generation, or -1 once closed. */
  private long awaitPassed() throws InterruptedException {
    synchronized (lock) {
      while (!closed) {
        if (!set) {
          lock.wait();
          continue;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          // Acted on once: the runner must give a newer deadline to be watched again.
          set = false;
          return generation;
        }
        lock.wait(TimeUnit.NANOSECONDS.toMillis(left) + 1);
      }
      return -1;
    }
  }

  /**
   * True when the runner gave a newer deadline after {@code passed}: the runner writes the line
   * before it starts a program the line covers, so a line still in the pipe when the deadline
   * passed must be read before any program is stopped.
   */
  private boolean newerComing(long passed) throws InterruptedException {
    for (int i = 0; i < LINE_WAITS; i++) {
      if (generation() != passed) {
        return true;
      }
      if (waiting() == 0) {
        break;
      }
      Thread.sleep(5);
    }
    return generation() != passed;
  }

  private int waiting() {
    try {
      return in.available();
    } catch (IOException e) {
      return 0;
    }
  }

  private long generation() {
    synchronized (lock) {
      return generation;
    }
  }
}

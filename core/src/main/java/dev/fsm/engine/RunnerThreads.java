package dev.fsm.engine;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The runner's own threads: daemons, so that an action deaf to its stop never holds the JVM. */
final class RunnerThreads {

  private RunnerThreads() {}

  /** Daemon threads named {@code name-1}, {@code name-2}, ... */
  static ThreadFactory daemons(String name) {
    AtomicInteger n = new AtomicInteger();
    return r -> {
      Thread t = new Thread(r, name + "-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  /** Waits up to 5 s for the pool's threads to end; an interrupt ends the wait, kept. */
  static void awaitQuietly(ExecutorService pool) {
    try {
      pool.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

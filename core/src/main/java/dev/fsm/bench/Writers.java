package dev.fsm.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/** Runs concurrent writer threads for a measured time and counts what they did. */
final class Writers {

  /** One writer's step: does some durable operations and says how many. */
  @FunctionalInterface
  interface Step {
    int run(int writer) throws Exception;
  }

  /** One writer's whole run until {@code endNanos}; returns how many operations it did. */
  @FunctionalInterface
  interface Loop {
    long run(int writer, long endNanos) throws Exception;
  }

  private Writers() {}

  /** Each writer repeats {@code step} until the time is up, each step waiting for its acks. */
  static Throughput closedLoop(int writers, double seconds, Step step) {
    return run(writers, seconds, (writer, end) -> {
      long done = 0;
      while (System.nanoTime() < end) {
        done += step.run(writer);
      }
      return done;
    });
  }

  /**
   * Runs {@code loop} on {@code writers} threads at once; the time counts until the last one
   * returns, so unfinished work at the deadline is charged to the run.
   */
  static Throughput run(int writers, double seconds, Loop loop) {
    long[] done = new long[writers];
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>(writers);
    long start = System.nanoTime();
    long end = start + (long) (seconds * 1e9);
    for (int w = 0; w < writers; w++) {
      int writer = w;
      Thread t = new Thread(() -> {
        try {
          done[writer] = loop.run(writer, end);
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "bench-writer-" + w);
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while writers ran", e);
      }
    }
    long nanos = System.nanoTime() - start;
    if (failure.get() != null) {
      throw new IllegalStateException("a bench writer failed: " + failure.get(), failure.get());
    }
    return new Throughput(writers, Arrays.stream(done).sum(), nanos);
  }
}

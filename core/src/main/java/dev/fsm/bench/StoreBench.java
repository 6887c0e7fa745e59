package dev.fsm.bench;

import dev.fsm.store.Store;
import dev.fsm.task.Change;
import dev.fsm.task.Task;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Durable transitions through a store, as runners make them: each writer claims a batch of due
 * tasks, then records an outcome for each, one by one, waiting for each to be durable.
 */
final class StoreBench {

  /** Long enough that no lease runs out during a measurement. */
  private static final Duration LEASE = Duration.ofMinutes(10);

  /** Below this a paced writer spins instead of parking, to start on time. */
  private static final long SPIN_NANOS = 50_000;

  private final Store store;
  private final BenchTasks tasks;
  private final int claimBatch;

  StoreBench(Store store, BenchTasks tasks, int claimBatch) {
    this.store = store;
    this.tasks = tasks;
    this.claimBatch = claimBatch;
  }

  /**
   * How many tasks to create so that writers always find due work: every writer may hold a
   * whole batch while the others claim theirs.
   */
  static int poolSize(int maxWriters, int claimBatch) {
    return Math.max(4096, maxWriters * claimBatch * 4);
  }

  /** Creates the pool of due tasks the writers cycle through. */
  void createPool(int size, int createBatch) {
    Instant now = Instant.now();
    for (int from = 0; from < size; from += createBatch) {
      store.create(tasks.runnable(from, Math.min(createBatch, size - from), now));
    }
  }

  /**
   * Transitions/s with {@code writers} writers, each recording its claimed batch's outcomes with
   * one {@code recordAll} call (one durable write), as a runner completing a batch does.
   */
  Throughput closedLoopBatched(int writers, double seconds) {
    return Writers.closedLoop(writers, seconds, writer -> {
      String owner = owner(writer);
      List<Task> claimed = store.claim(owner, claimBatch, Instant.now(), LEASE);
      List<Change> outcomes = new ArrayList<>(claimed.size());
      for (Task t : claimed) {
        outcomes.add(tasks.succeeded(t, owner, Instant.now()));
      }
      store.recordAll(owner, outcomes);
      return claimed.size();
    });
  }

  /** Transitions/s with {@code writers} writers, each finishing the batch it holds at the end. */
  Throughput closedLoop(int writers, double seconds) {
    return Writers.closedLoop(writers, seconds, writer -> {
      String owner = owner(writer);
      List<Task> claimed = store.claim(owner, claimBatch, Instant.now(), LEASE);
      for (Task t : claimed) {
        store.record(owner, tasks.succeeded(t, owner, Instant.now()));
      }
      return claimed.size();
    });
  }

  /**
   * Ack latency of transitions offered at {@code perSecond} in all by {@code writers} paced
   * writers. A writer that falls behind its schedule does not skip: the late transitions count
   * from when they were due.
   */
  HalfLoad paced(int writers, int basisWriters, double perSecond, double seconds,
      LongSupplier forces) {
    long forcesBefore = forces.getAsLong();
    long interval = (long) (writers * 1e9 / perSecond);
    LatencyRecorder[] recorders = new LatencyRecorder[writers];
    Throughput achieved = Writers.run(writers, seconds, (writer, end) -> {
      String owner = owner(writer);
      LatencyRecorder latencies = new LatencyRecorder();
      recorders[writer] = latencies;
      Deque<Task> held = new ArrayDeque<>();
      long due = System.nanoTime() + interval * writer / writers;
      long done = 0;
      while (due < end) {
        waitUntil(due);
        if (held.isEmpty()) {
          held.addAll(store.claim(owner, claimBatch, Instant.now(), LEASE));
        }
        Task t = held.poll();
        if (t != null) {
          store.record(owner, tasks.succeeded(t, owner, Instant.now()));
          latencies.record(System.nanoTime() - due);
          done++;
        }
        due += interval;
      }
      // Tasks still held stay leased: the store is closed next, which drops its leases.
      return done;
    });
    LatencyRecorder all = new LatencyRecorder();
    for (LatencyRecorder r : recorders) {
      all.addAll(r);
    }
    double forcesPerSecond = (forces.getAsLong() - forcesBefore) * 1e9 / achieved.nanos();
    return new HalfLoad(writers, basisWriters, perSecond, achieved, all.summary(),
        forcesPerSecond);
  }

  private static String owner(int writer) {
    return "bench/w" + writer;
  }

  private static void waitUntil(long nanoTime) {
    long wait;
    while ((wait = nanoTime - System.nanoTime()) > 0) {
      if (wait > SPIN_NANOS) {
        LockSupport.parkNanos(wait - SPIN_NANOS);
      } else {
        Thread.onSpinWait();
      }
    }
  }
}

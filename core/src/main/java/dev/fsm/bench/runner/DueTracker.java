package dev.fsm.bench.runner;

import dev.fsm.bench.Latency;
import dev.fsm.bench.LatencyRecorder;
import dev.fsm.engine.RunListener;
import dev.fsm.task.Change;
import dev.fsm.task.Task;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hears every recorded transition and measures how long after its task became due it reached
 * the disk. A task is due at its start time, then at each recorded transition's next due time.
 */
final class DueTracker implements RunListener {

  private final Map<String, Instant> due = new ConcurrentHashMap<>();
  private final LatencyRecorder latencies = new LatencyRecorder();
  private final AtomicLong recorded = new AtomicLong();
  private final AtomicLong problems = new AtomicLong();
  private volatile String lastProblem;

  /** Starts tracking tasks just created. */
  void started(List<Task> tasks) {
    for (Task t : tasks) {
      due.put(t.id(), t.due());
    }
  }

  @Override
  public void recorded(Change change) {
    Instant now = Instant.now();
    Instant was = due.remove(change.next().id());
    if (was != null) {
      long nanos = Math.max(0, java.time.Duration.between(was, now).toNanos());
      synchronized (latencies) {
        latencies.record(nanos);
      }
    }
    if (change.next().due() != null) {
      due.put(change.next().id(), change.next().due());
    }
    recorded.incrementAndGet();
  }

  @Override
  public void problem(String message) {
    problems.incrementAndGet();
    lastProblem = message;
  }

  /** Transitions recorded so far. */
  long recorded() {
    return recorded.get();
  }

  /** The latencies so far. */
  Latency latency() {
    synchronized (latencies) {
      return latencies.summary();
    }
  }

  /** The last problem the runner reported, or null; a benchmark with problems is void. */
  String lastProblem() {
    return problems.get() == 0 ? null : problems.get() + " problem(s), the last: " + lastProblem;
  }
}

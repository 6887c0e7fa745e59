package dev.fsm.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The newest of many durations by the time each ended, up to a capacity, whatever order they
 * arrive in: histories read newest task first still give samples that are not in time order, as
 * an older task may have run a state after a newer one. Not thread-safe.
 */
final class NewestDurations {

  private record Timed(Instant at, long millis) {}

  private final int capacity;
  /** The oldest kept at the head, the first to go when a newer one arrives. */
  private final PriorityQueue<Timed> kept = new PriorityQueue<>(Comparator.comparing(Timed::at));

  NewestDurations(int capacity) {
    this.capacity = capacity;
  }

  /** Offers a duration that ended at {@code at}; kept if among the newest so far. */
  void add(Instant at, long millis) {
    if (kept.size() < capacity) {
      kept.add(new Timed(at, millis));
    } else if (at.isAfter(kept.peek().at())) {
      kept.poll();
      kept.add(new Timed(at, millis));
    }
  }

  /** How many are kept. */
  int count() {
    return kept.size();
  }

  /** The kept durations, oldest first, as {@link DurationSamples} wants them added. */
  List<Duration> oldestFirst() {
    List<Timed> sorted = new ArrayList<>(kept);
    sorted.sort(Comparator.comparing(Timed::at));
    List<Duration> out = new ArrayList<>(sorted.size());
    for (Timed t : sorted) {
      out.add(Duration.ofMillis(t.millis()));
    }
    return out;
  }
}

package dev.fsm.engine;

import java.util.TreeMap;

/** A sorted multiset of monotonic-clock instants: the fences of the leases a runner holds. */
final class FenceSet {

  private final TreeMap<Long, Integer> counts = new TreeMap<>();

  void add(long fence) {
    counts.merge(fence, 1, Integer::sum);
  }

  /** Removes one occurrence of {@code fence}; none held, nothing. */
  void remove(long fence) {
    counts.computeIfPresent(fence, (k, n) -> n == 1 ? null : n - 1);
  }

  boolean isEmpty() {
    return counts.isEmpty();
  }

  /** The earliest fence; the set must not be empty. */
  long first() {
    return counts.firstKey();
  }

  /** The latest fence; the set must not be empty. */
  long last() {
    return counts.lastKey();
  }
}

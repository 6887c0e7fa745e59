package dev.fsm.store;

import dev.fsm.task.Task;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The ids of the tasks changed most recently, in the order of their latest change, for a store
 * that keeps no such order on disk ({@link Store#recentlyChanged}): a ring of the last {@code
 * capacity} changes, each noted in O(1), and a map from each id to its latest place in it. A
 * task changed again is found at its newest place only. Not thread-safe: its store's lock
 * guards it.
 */
public final class ChangeOrder {

  private final String[] ids;
  /** The number of the change in each slot of {@link #ids}. */
  private final long[] numbers;
  /** Each id in the ring and the number of its latest change. */
  private final Map<String, Long> latest = new HashMap<>();
  /** How many changes were noted: the next one's number. */
  private long next;

  /** Keeps the last {@code capacity} changes. */
  public ChangeOrder(int capacity) {
    this.ids = new String[capacity];
    this.numbers = new long[capacity];
  }

  /** Task {@code id} was created or changed now. */
  public void changed(String id) {
    int slot = (int) (next % ids.length);
    String old = ids[slot];
    if (old != null) {
      Long newest = latest.get(old);
      if (newest != null && newest == numbers[slot]) {
        latest.remove(old);
      }
    }
    ids[slot] = id;
    numbers[slot] = next;
    latest.put(id, next);
    next++;
  }

  /** Task {@code id} is gone (purged). */
  public void removed(String id) {
    latest.remove(id);
  }

  /**
   * {@link Store#recentlyChanged} over this order: the tasks {@code read} finds (null for one
   * no longer there) that the filter selects, without their contexts.
   */
  public List<Task> newestTasks(TaskQuery filter, Function<String, Task> read) {
    return newest(filter.limit(), id -> {
      Task t = read.apply(id);
      return t == null ? null : t.withContext("{}");
    }, filter::matchesStored);
  }

  /**
   * Up to {@code limit} tasks, the most recently changed first, read through {@code read}
   * (null for a task no longer there) and kept when {@code wanted} says so.
   */
  public <T> List<T> newest(int limit, Function<String, T> read, Predicate<T> wanted) {
    List<T> found = new ArrayList<>(Math.min(limit, 64));
    long oldest = Math.max(0, next - ids.length);
    for (long n = next - 1; n >= oldest && found.size() < limit; n--) {
      int slot = (int) (n % ids.length);
      String id = ids[slot];
      Long newest = latest.get(id);
      if (newest == null || newest != n) {
        continue;
      }
      T t = read.apply(id);
      if (t != null && wanted.test(t)) {
        found.add(t);
      }
    }
    return found;
  }
}

package dev.fsm.store.embedded.index;

import dev.fsm.task.Task;
import java.util.Iterator;
import java.util.LinkedHashMap;

/**
 * The index's most recently used tasks, decoded, with their history's tail (length and last
 * chunk, see {@link TaskHistories.Tail}) when known. A claimed task is read again when its
 * outcome is recorded, and every read of MapDB decodes whole B-tree nodes, so this saves two tree
 * visits per transition, and the tail a third (the chunk the outcome's entry goes in). Bounded in
 * tasks and in the characters of their contexts and bytes of their tails, so memory grows
 * neither with the tasks stored nor with their size. Not thread-safe: the store's lock guards it,
 * as it does the index.
 */
final class RecentTasks {

  /**
   * Context characters and tail bytes kept at most: 8,192 tasks of 200 bytes are 1.6 million
   * (their tails at most about 16 entries of 50 bytes each), while 1,500 of 200 KB (the SPEC
   * allows 1 MiB) ran a runner out of a 256 MiB heap (measured).
   */
  static final long MAX_CHARS = 8L << 20;

  /** A task as stored, and its history's tail, or null when not known. */
  record Entry(Task task, TaskHistories.Tail tail) {

    /** How many history entries the task has, or -1 when not known. */
    int historyLength() {
      return tail == null ? -1 : tail.length();
    }
  }

  private final LinkedHashMap<String, Entry> entries;
  private final int capacity;
  private final long maxChars;
  private long chars;

  RecentTasks(int capacity) {
    this(capacity, MAX_CHARS);
  }

  RecentTasks(int capacity, long maxChars) {
    this.entries = new LinkedHashMap<>(capacity * 4 / 3 + 1, 0.75f, true);
    this.capacity = capacity;
    this.maxChars = maxChars;
  }

  /** The entry for this id, or null when the task is not among the recent ones. */
  Entry get(String id) {
    return entries.get(id);
  }

  /** Notes a task as now stored, keeping a known tail. */
  void stored(Task task) {
    Entry old = entries.get(task.id());
    put(task.id(), new Entry(task, old == null ? null : old.tail()));
  }

  /**
   * Notes a task as now stored with its history's tail (null: not known), in one visit of the
   * map where {@link #stored} and {@link #tail} take two each.
   */
  void stored(Task task, TaskHistories.Tail tail) {
    put(task.id(), new Entry(task, tail));
  }

  /** Notes a task's history tail, if the task is among the recent ones. */
  void tail(String id, TaskHistories.Tail tail) {
    Entry old = entries.get(id);
    if (old != null) {
      put(id, new Entry(old.task(), tail));
    }
  }

  /** Forgets a task, when what the index holds for it is not known. */
  void forget(String id) {
    Entry old = entries.remove(id);
    if (old != null) {
      chars -= weight(old);
    }
  }

  /** How many tasks it holds now. */
  int size() {
    return entries.size();
  }

  /** The context characters and tail bytes it holds now. */
  long chars() {
    return chars;
  }

  private void put(String id, Entry e) {
    Entry old = entries.put(id, e);
    chars += weight(e) - (old == null ? 0 : weight(old));
    if (entries.size() <= capacity && chars <= maxChars) {
      return;
    }
    // The map is in access order, so the eldest are the least recently used; e is the newest.
    Iterator<Entry> eldest = entries.values().iterator();
    while ((entries.size() > capacity || chars > maxChars) && eldest.hasNext()) {
      Entry gone = eldest.next();
      if (gone == e) {
        break;
      }
      eldest.remove();
      chars -= weight(gone);
    }
  }

  private static long weight(Entry e) {
    byte[] chunk = e.tail() == null ? null : e.tail().chunk();
    return e.task().context().length() + (chunk == null ? 0 : chunk.length);
  }
}

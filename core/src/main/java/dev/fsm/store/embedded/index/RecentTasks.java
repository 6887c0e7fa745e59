package dev.fsm.store.embedded.index;

import dev.fsm.task.Task;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The index's most recently used tasks, decoded, with their history length when known. A claimed
 * task is read again when its outcome is recorded, and every read of MapDB decodes whole B-tree
 * nodes, so this saves two tree visits per transition. Bounded, so memory does not grow with the
 * tasks stored. Not thread-safe: the store's lock guards it, as it does the index.
 */
final class RecentTasks {

  /** A task as stored, and how many history entries it has, or -1 when not known. */
  record Entry(Task task, int historyLength) {}

  private final Map<String, Entry> entries;

  RecentTasks(int capacity) {
    this.entries = new LinkedHashMap<>(capacity * 4 / 3 + 1, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
        return size() > capacity;
      }
    };
  }

  /** The entry for this id, or null when the task is not among the recent ones. */
  Entry get(String id) {
    return entries.get(id);
  }

  /** Notes a task as now stored, keeping a known history length. */
  void stored(Task task) {
    Entry old = entries.get(task.id());
    entries.put(task.id(), new Entry(task, old == null ? -1 : old.historyLength()));
  }

  /** Notes a task's history length. */
  void historyLength(String id, int length) {
    Entry old = entries.get(id);
    if (old != null) {
      entries.put(id, new Entry(old.task(), length));
    }
  }

  /** Forgets a task, when what the index holds for it is not known. */
  void forget(String id) {
    entries.remove(id);
  }
}

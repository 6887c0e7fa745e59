package dev.fsm.store.embedded;

import dev.fsm.task.Transition;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;

/**
 * The index's task histories: one entry per transition, keyed by {@link IndexKeys#history} (the
 * task's id, then the entry's place), so a task's history is one range, oldest first, and
 * putting an entry at its place twice is the same as once.
 */
final class TaskHistories {

  private final NavigableMap<byte[], byte[]> entries;

  TaskHistories(NavigableMap<byte[], byte[]> entries) {
    this.entries = entries;
  }

  /** Puts the entry at its place in the task's history. */
  void put(String id, int place, Transition entry) {
    entries.put(IndexKeys.history(id, place), TransitionCodec.encode(entry));
  }

  /** A task's history, oldest first. */
  List<Transition> of(String id) {
    List<Transition> found = new ArrayList<>();
    for (byte[] bytes : entries.subMap(IndexKeys.historyOf(id), true, IndexKeys.historyEnd(id),
        false).values()) {
      found.add(TransitionCodec.decode(bytes));
    }
    return found;
  }

  /** How many entries the task's history holds: the place of its next one. */
  int length(String id) {
    byte[] prefix = IndexKeys.historyOf(id);
    byte[] last = entries.lowerKey(IndexKeys.historyEnd(id));
    return last != null && last.length == prefix.length + 4 && IndexKeys.startsWith(last, prefix)
        ? IndexKeys.historyPlace(last) + 1 : 0;
  }

  /** Decodes the last entry; see {@link TaskIndex#check}. */
  void check() {
    if (!entries.isEmpty()) {
      TransitionCodec.decode(entries.lastEntry().getValue());
    }
  }
}

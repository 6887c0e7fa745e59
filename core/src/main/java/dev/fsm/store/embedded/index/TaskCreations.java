package dev.fsm.store.embedded.index;

import dev.fsm.store.TaskQuery;
import dev.fsm.task.Task;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import java.util.function.Function;

/**
 * Every task by creation time, then id: the order {@code fsm ls} lists by default, read a page at
 * a time from either end instead of sorting every task (ids given with {@code --id} do not sort
 * by creation, so the id order cannot serve).
 */
final class TaskCreations {

  static final String NAME = "created";

  private final NavigableSet<byte[]> slots;

  TaskCreations(NavigableSet<byte[]> slots) {
    this.slots = slots;
  }

  static byte[] slot(Task t) {
    return IndexKeys.slot(t.created(), t.id());
  }

  /** Moves a task from its previous snapshot's slot (none when new) to its next one's. */
  void move(Task previous, Task next) {
    if (previous != null && previous.created().equals(next.created())) {
      return;
    }
    if (previous != null) {
      slots.remove(slot(previous));
    }
    slots.add(slot(next));
  }

  /** Takes a purged task out of the creation order. */
  void remove(Task previous) {
    slots.remove(slot(previous));
  }

  /**
   * A page of tasks matching the query in creation order, after {@code cursor} (null for the
   * first page), read through {@code get}.
   */
  List<Task> page(TaskQuery query, Task cursor, Function<String, Task> get) {
    NavigableSet<byte[]> range = cursor == null ? slots
        : query.descending() ? slots.headSet(slot(cursor), false)
        : slots.tailSet(slot(cursor), false);
    List<Task> page = new ArrayList<>();
    for (byte[] s : query.descending() ? range.descendingSet() : range) {
      Task t = get.apply(IndexKeys.slotId(s));
      if (t != null && query.matchesStored(t)) {
        page.add(t);
        if (page.size() == query.limit()) {
          break;
        }
      }
    }
    return page;
  }
}

package dev.fsm.store.embedded.index;

import dev.fsm.store.ChangeOrder;
import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.store.embedded.index.TaskIndex.Appended;
import dev.fsm.task.Task;
import java.util.function.Function;
import org.mapdb.BTreeMap;

/**
 * The index's write side: applies journal and snapshot events to every collection a task is in
 * (the tasks, the due queue, the groups and counts, the creation order, the history, the machine
 * versions), keeping the recent tasks in step.
 */
final class TaskChanges {

  private final BTreeMap<byte[], byte[]> tasks;
  private final TaskHistories history;
  private final TaskQueues queues;
  private final TaskGroups groups;
  private final TaskCreations creations;
  private final MachineVersions versions;
  private final TaskValues values;
  private final RecentTasks recent;
  /** The tasks in the order of their latest change, for a view of what happens now. */
  private final ChangeOrder order;
  /** A task as stored now, through the recent tasks; null when there is none. */
  private final Function<String, Task> stored;

  TaskChanges(BTreeMap<byte[], byte[]> tasks, TaskHistories history, TaskQueues queues,
      TaskGroups groups, TaskCreations creations, MachineVersions versions, TaskValues values,
      RecentTasks recent, ChangeOrder order, Function<String, Task> stored) {
    this.tasks = tasks;
    this.history = history;
    this.queues = queues;
    this.groups = groups;
    this.creations = creations;
    this.versions = versions;
    this.values = values;
    this.recent = recent;
    this.order = order;
    this.stored = stored;
  }

  /** See {@link TaskIndex#apply(Appended)}. */
  void apply(Appended appended) {
    StoreEvent event = appended.event();
    if (event instanceof StoreEvent.Created c) {
      for (int i = 0; i < c.tasks().size(); i++) {
        replaceKeepingTail(c.tasks().get(i), appended.before(i), appended.after(i));
        order.changed(c.tasks().get(i).id());
      }
    } else if (event instanceof StoreEvent.Changed c) {
      String id = c.task().id();
      RecentTasks.Entry known = recent.get(id);
      Task next = replace(c.task(), known, appended.before(0), appended.after(0));
      TaskHistories.Tail tail;
      try {
        tail = history.put(id, c.historyIndex(), c.entry(), known == null ? null : known.tail());
      } catch (RuntimeException | Error e) {
        recent.forget(id);
        throw e;
      }
      recent.stored(next, tail);
      order.changed(id);
    } else if (event instanceof StoreEvent.Restored r) {
      restore(r);
    } else if (event instanceof StoreEvent.Imported i) {
      i.tasks().forEach(this::restore);
    } else if (event instanceof StoreEvent.Purged p) {
      p.ids().forEach(this::remove);
    } else if (event instanceof StoreEvent.Registered r) {
      versions.put(r);
    }
  }

  /** A task with its whole history, as a snapshot or an import holds it. */
  private void restore(StoreEvent.Restored r) {
    String id = r.task().id();
    replaceKeepingTail(r.task(), false, false);
    for (int i = 0; i < r.history().size(); i++) {
      history.put(id, i, r.history().get(i));
    }
    recent.forget(id);
    order.changed(id);
  }

  /**
   * Deletes a purged task from every collection: the tasks, the due queue, its group and count,
   * the creation order, its history and the recent tasks. Gone already (a replay), nothing.
   */
  private void remove(String id) {
    Task previous = stored.apply(id);
    recent.forget(id);
    order.removed(id);
    if (previous == null) {
      return;
    }
    tasks.remove(IndexKeys.id(id));
    if (TaskQueues.scheduled(previous)) {
      queues.remove(previous);
    }
    groups.remove(previous);
    creations.remove(previous);
    history.remove(id);
  }

  /** As {@link #replace}, noting the task as recent with the history tail known before. */
  private void replaceKeepingTail(Task next, boolean wasOut, boolean isOut) {
    RecentTasks.Entry known = recent.get(next.id());
    Task kept = replace(next, known, wasOut, isOut);
    recent.stored(kept, known == null ? null : known.tail());
  }

  /**
   * Stores a task's next snapshot, without its lease, and moves it in the due queue and groups;
   * the same B-tree visit that stores it gives what it replaces, unless {@code known}, the
   * task's recent entry (null: none), has it. {@code wasOut} and {@code isOut} say whether a
   * lease holds it out of the due queue before and after. Gives the task as stored, for the
   * caller to note as recent; on a failure the task is no longer among the recent ones.
   */
  private Task replace(Task next, RecentTasks.Entry known, boolean wasOut, boolean isOut) {
    Task kept = TaskIndex.withoutLease(next);
    byte[] key = IndexKeys.id(kept.id());
    try {
      byte[] old = tasks.put(key, values.encodeRemembering(kept));
      place(old == null ? null : known != null ? known.task() : TaskIndex.decode(key, old),
          wasOut, kept, isOut);
    } catch (RuntimeException | Error e) {
      recent.forget(kept.id());
      throw e;
    }
    return kept;
  }

  /**
   * Moves a task from where its previous snapshot was in the due queue (unless a lease held it
   * out) and the groups to where the next one goes.
   */
  private void place(Task previous, boolean wasOut, Task next, boolean isOut) {
    boolean wasQueued = previous != null && !wasOut && TaskQueues.scheduled(previous);
    boolean isQueued = !isOut && TaskQueues.scheduled(next);
    boolean sameSlot = wasQueued && isQueued && previous.due().equals(next.due());
    if (wasQueued && !sameSlot) {
      queues.remove(previous);
    }
    if (isQueued && !sameSlot) {
      queues.add(next);
    }
    groups.move(previous, next);
    creations.move(previous, next);
  }
}

package dev.fsm.store.embedded;

import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.function.Function;

/**
 * The index's time queues, as in InMemoryStore: a scheduled task sits in exactly one, unleased
 * ones by due time and leased ones by the end of their lease, each keyed by {@link
 * IndexKeys#slot} so that claims are O(log n) and oldest due first. A task that carries a lease
 * but is not in the lease queue (its lease ran out and it went back to the due queue, or it is not
 * scheduled) is also in {@code otherLeases}, so that dropping every lease never scans all tasks.
 */
final class TaskQueues {

  private final NavigableSet<byte[]> due;
  private final NavigableSet<byte[]> leases;
  private final NavigableSet<byte[]> otherLeases;

  /**
   * Lower bounds of the two queues (null: none known): no key in the queue sorts before them.
   * MapDB never merges B-tree nodes emptied by removals, and claims remove from the front of the
   * queues, so an iterator started at the very front walks every emptied node since the store was
   * opened; starting at the bound, the descent skips them.
   */
  private byte[] dueFloor;
  private byte[] leaseFloor;

  TaskQueues(NavigableSet<byte[]> due, NavigableSet<byte[]> leases,
      NavigableSet<byte[]> otherLeases) {
    this.due = due;
    this.leases = leases;
    this.otherLeases = otherLeases;
  }

  void add(Task t) {
    boolean scheduled = t.due() != null && !t.status().isTerminal()
        && t.status() != TaskStatus.PAUSED;
    if (scheduled && t.lease() != null) {
      leaseFloor = lower(leaseFloor, leases, IndexKeys.slot(t.lease().until(), t.id()));
    } else if (scheduled) {
      dueFloor = lower(dueFloor, due, IndexKeys.slot(t.due(), t.id()));
    } else if (t.lease() != null) {
      otherLeases.add(IndexKeys.id(t.id()));
    }
  }

  // A leased task may have gone back to the due queue when its lease ran out, so try both.
  void remove(Task t) {
    if (t.due() != null) {
      due.remove(IndexKeys.slot(t.due(), t.id()));
    }
    if (t.lease() != null) {
      leases.remove(IndexKeys.slot(t.lease().until(), t.id()));
      otherLeases.remove(IndexKeys.id(t.id()));
    }
  }

  /** True when the task is where {@link #add} puts it; a shortcut when it would not move. */
  static boolean samePlace(Task a, Task b) {
    return Objects.equals(a.due(), b.due()) && Objects.equals(a.lease(), b.lease())
        && a.status() == b.status();
  }

  /**
   * Moves tasks whose lease ended by {@code now} back to the due queue, where they keep their
   * place by due time. The tasks keep their expired lease, which the owner may still renew.
   */
  void expire(Instant now, Function<String, Task> tasks) {
    List<byte[]> ended = new ArrayList<>();
    for (byte[] s : head(leases, leaseFloor, now)) {
      ended.add(s);
    }
    leaseFloor = ended.isEmpty() ? leaseFloor : ended.get(ended.size() - 1);
    for (byte[] s : ended) {
      String id = IndexKeys.slotId(s);
      leases.remove(s);
      dueFloor = lower(dueFloor, due, IndexKeys.slot(tasks.apply(id).due(), id));
      otherLeases.add(IndexKeys.id(id));
    }
  }

  /** Ids of tasks due by {@code now}, oldest due first. */
  Iterable<String> dueBy(Instant now) {
    NavigableSet<byte[]> slots = head(due, dueFloor, now);
    // Not slots.stream(): a stream asks a MapDB subset its size, which counts every entry.
    return () -> {
      Iterator<byte[]> it = slots.iterator();
      return new Iterator<>() {
        private boolean first = true;

        @Override
        public boolean hasNext() {
          return it.hasNext();
        }

        @Override
        public String next() {
          byte[] slot = it.next();
          if (first) {
            // Nothing sorts before the first slot found, so later walks may start there.
            dueFloor = slot;
            first = false;
          }
          return IndexKeys.slotId(slot);
        }
      };
    };
  }

  /** Ids of every task that carries a lease. */
  List<String> leased() {
    List<String> held = new ArrayList<>();
    for (byte[] s : leases) {
      held.add(IndexKeys.slotId(s));
    }
    for (byte[] id : otherLeases) {
      held.add(IndexKeys.idAt(id, 0));
    }
    return held;
  }

  /** The queue's slots up to {@code now}, from the bound on when one is known. */
  private static NavigableSet<byte[]> head(NavigableSet<byte[]> queue, byte[] floor,
      Instant now) {
    byte[] end = IndexKeys.slotsAfter(now);
    if (floor == null) {
      return queue.headSet(end, false);
    }
    return Arrays.compareUnsigned(floor, end) >= 0
        ? Collections.emptyNavigableSet() : queue.subSet(floor, true, end, false);
  }

  /** Adds a slot to a queue and gives the queue's bound, lowered to the slot when need be. */
  private static byte[] lower(byte[] floor, NavigableSet<byte[]> queue, byte[] slot) {
    queue.add(slot);
    return floor != null && Arrays.compareUnsigned(slot, floor) < 0 ? slot : floor;
  }

  /** Touches both ends of every queue; see {@link TaskIndex#check}. */
  void check() {
    for (NavigableSet<?> s : List.of(due, leases, otherLeases)) {
      if (!s.isEmpty()) {
        s.first();
        s.last();
      }
    }
  }
}

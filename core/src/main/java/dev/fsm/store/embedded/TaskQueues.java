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
   * Lower bounds of the two queues (null: none known): no slot in the queue sorts before them.
   * MapDB never merges B-tree nodes emptied by removals, and claims and outcomes remove from the
   * front of the queues, so a walk started at the very front crosses every node emptied since
   * the store was opened: measured, claims slowed tenfold over 400k transitions. Started at the
   * bound, the descent skips them.
   */
  private byte[] dueFloor;
  private byte[] leaseFloor;

  /** The bound of an empty queue: above every slot, so the first slot added lowers it. */
  private static final byte[] ABOVE_ALL = filled(24, (byte) 0xff);

  TaskQueues(NavigableSet<byte[]> due, NavigableSet<byte[]> leases,
      NavigableSet<byte[]> otherLeases) {
    this.due = due;
    this.leases = leases;
    this.otherLeases = otherLeases;
  }

  /** Where {@link #add} puts a task. */
  enum Place { DUE, LEASES, OTHER_LEASES, NONE }

  static Place placeOf(Task t) {
    boolean scheduled = t.due() != null && !t.status().isTerminal()
        && t.status() != TaskStatus.PAUSED;
    if (scheduled) {
      return t.lease() != null ? Place.LEASES : Place.DUE;
    }
    return t.lease() != null ? Place.OTHER_LEASES : Place.NONE;
  }

  void add(Task t) {
    switch (placeOf(t)) {
      case LEASES -> leaseFloor = lower(leaseFloor, leases,
          IndexKeys.slot(t.lease().until(), t.id()));
      case DUE -> dueFloor = lower(dueFloor, due, IndexKeys.slot(t.due(), t.id()));
      case OTHER_LEASES -> otherLeases.add(IndexKeys.id(t.id()));
      case NONE -> { }
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
    leaseFloor = advance(leases, leaseFloor);
    List<byte[]> ended = new ArrayList<>();
    for (byte[] s : head(leases, leaseFloor, now)) {
      ended.add(s);
    }
    for (byte[] s : ended) {
      String id = IndexKeys.slotId(s);
      leases.remove(s);
      dueFloor = lower(dueFloor, due, IndexKeys.slot(tasks.apply(id).due(), id));
      otherLeases.add(IndexKeys.id(id));
    }
  }

  /** Ids of tasks due by {@code now}, oldest due first. */
  Iterable<String> dueBy(Instant now) {
    dueFloor = advance(due, dueFloor);
    NavigableSet<byte[]> slots = head(due, dueFloor, now);
    // Not slots.stream(): a stream asks a MapDB subset its size, which counts every entry.
    return () -> {
      Iterator<byte[]> it = slots.iterator();
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          return it.hasNext();
        }

        @Override
        public String next() {
          return IndexKeys.slotId(it.next());
        }
      };
    };
  }

  /**
   * The earliest time a claim could find work: the first due time among unleased tasks, or the
   * first end of a lease; null when neither queue holds anything.
   */
  Instant next() {
    dueFloor = advance(due, dueFloor);
    leaseFloor = advance(leases, leaseFloor);
    Instant first = null;
    for (byte[] floor : List.of(dueFloor, leaseFloor)) {
      if (floor != ABOVE_ALL) {
        Instant at = IndexKeys.slotTime(floor);
        first = first == null || at.isBefore(first) ? at : first;
      }
    }
    return first;
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

  /**
   * Raises a queue's bound to its first slot (the walk over nodes emptied since the bound was
   * set happens once, here); the first time after open it starts from the front.
   */
  private static byte[] advance(NavigableSet<byte[]> queue, byte[] floor) {
    byte[] first = floor == null ? (queue.isEmpty() ? null : queue.first())
        : queue.ceiling(floor);
    return first == null ? ABOVE_ALL : first;
  }

  /** The queue's slots up to {@code now}, from its bound on. */
  private static NavigableSet<byte[]> head(NavigableSet<byte[]> queue, byte[] floor,
      Instant now) {
    byte[] end = IndexKeys.slotsAfter(now);
    return Arrays.compareUnsigned(floor, end) >= 0
        ? Collections.emptyNavigableSet() : queue.subSet(floor, true, end, false);
  }

  /** Adds a slot to a queue and gives the queue's bound, lowered to the slot when need be. */
  private static byte[] lower(byte[] floor, NavigableSet<byte[]> queue, byte[] slot) {
    queue.add(slot);
    return floor != null && Arrays.compareUnsigned(slot, floor) < 0 ? slot : floor;
  }

  private static byte[] filled(int length, byte value) {
    byte[] bytes = new byte[length];
    Arrays.fill(bytes, value);
    return bytes;
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

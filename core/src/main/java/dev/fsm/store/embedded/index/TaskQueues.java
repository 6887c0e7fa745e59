package dev.fsm.store.embedded.index;

import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableSet;
import java.util.NoSuchElementException;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The index's due queue: every scheduled task that no lease holds out of it (see {@code
 * Leases}), by due time, each keyed by {@link IndexKeys#slot} so that claims are O(log n) and
 * oldest due first.
 */
final class TaskQueues {

  private final NavigableSet<byte[]> due;

  /**
   * Lower bound of the queue (null: none known): no slot in the queue sorts before it. MapDB
   * never merges B-tree nodes emptied by removals, and claims remove from the front of the
   * queue, so a walk started at the very front crosses every node emptied since the store was
   * opened: measured, claims slowed tenfold over 400k transitions. Started at the bound, the
   * descent skips them.
   */
  private byte[] dueFloor;

  /** The bound of an empty queue: above every slot, so the first slot added lowers it. */
  private static final byte[] ABOVE_ALL = filled(24, (byte) 0xff);

  /**
   * The same slots by group (machine and state), on the heap: built by the first claim with
   * limits (see {@link GroupHeads}), then kept in step by {@link #add} and {@link #remove}.
   */
  private GroupHeads heads;

  TaskQueues(NavigableSet<byte[]> due) {
    this.due = due;
  }

  /** The due slots by group, built from the queue on first use with {@code get} (id to task). */
  GroupHeads heads(Function<String, Task> get) {
    if (heads == null) {
      heads = GroupHeads.of(due, get);
    }
    return heads;
  }

  /** True when the task belongs in the due queue, unless a lease holds it out. */
  static boolean scheduled(Task t) {
    return t.due() != null && !t.status().isTerminal() && t.status() != TaskStatus.PAUSED;
  }

  /** Puts a scheduled task in the queue. */
  void add(Task t) {
    byte[] slot = IndexKeys.slot(t.due(), t.id());
    dueFloor = lower(dueFloor, due, slot);
    if (heads != null) {
      heads.add(t, slot);
    }
  }

  /** Takes a scheduled task out of the queue. */
  void remove(Task t) {
    byte[] slot = IndexKeys.slot(t.due(), t.id());
    due.remove(slot);
    if (heads != null) {
      heads.remove(t, slot);
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

  /** The most due tasks one claim passes over before it gives up looking further. */
  static final int PASSED_OVER = 200_000;

  /**
   * Up to {@code max} tasks in the due queue by {@code now} and passing {@code claimable}, oldest
   * due first, each read through {@code get}. It passes over at most {@value #PASSED_OVER} tasks
   * (those a concurrency cap or an open breaker holds back), so one claim's work is bounded: due
   * tasks behind more held-back ones than that wait until the ones ahead start.
   */
  List<Task> claimable(int max, Instant now, Function<String, Task> get,
      Predicate<Task> claimable) {
    List<Task> found = new ArrayList<>();
    if (max <= 0) {
      return found;
    }
    int passedOver = 0;
    for (String id : dueBy(now)) {
      Task t = get.apply(id);
      if (claimable.test(t)) {
        found.add(t);
        if (found.size() == max) {
          break;
        }
      } else if (++passedOver == PASSED_OVER) {
        break;
      }
    }
    return found;
  }

  /** The first due time in the queue, or null when it is empty. */
  Instant next() {
    dueFloor = advance(due, dueFloor);
    return dueFloor == ABOVE_ALL ? null : IndexKeys.slotTime(dueFloor);
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

  /**
   * Touches the queue's last slot, which reads its rightmost path; see {@link TaskIndex#check}.
   * Not its first: MapDB never merges emptied nodes, so after a long run the front of the queue
   * is a chain of empty leaves (773k transitions over 1M tasks left enough to cost 0.4 s).
   */
  void check() {
    try {
      due.last();
    } catch (NoSuchElementException empty) {
      // An empty queue is sound: every task is final, paused, or held.
    }
  }
}

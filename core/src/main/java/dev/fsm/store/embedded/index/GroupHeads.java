package dev.fsm.store.embedded.index;

import dev.fsm.store.ClaimLimits;
import dev.fsm.task.Task;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.PriorityQueue;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The heads of the due queue by group (machine and state), on the heap only, for claims with
 * limits ({@link ClaimLimits}): a claim merges the heads of the groups that still have room,
 * oldest due first, and never walks past the tasks of a full group. Walking the one queue instead
 * cost 0.5 to 2 s per claim with 100k due tasks of a capped machine ahead of others (measured),
 * and a bound on that walk starved whatever was behind them. Nothing of it is written: it is
 * built from the queue by the first claim with limits after the index opens (one read of each
 * due task: 0.5 to 3 s for 100k), so the file format, {@code store check} and rebuilds are as
 * they were.
 *
 * <p>Each group keeps at most {@value #WINDOW} of its earliest slots (about 100 bytes each), with
 * a horizon: every slot of the group up to it is in the window. Keeping them all made the heap
 * grow with the due tasks (1M due tasks of a capped machine: 100 MiB, and a runner at 128 MiB
 * stalled in garbage collection). A window that runs dry is refilled by walking the queue from
 * its horizon.
 */
final class GroupHeads {

  /** Slots kept per group. */
  static final int WINDOW = 4096;

  /** One group's earliest slots; {@code horizon} null when the window holds the whole group. */
  private static final class Group {
    final NavigableSet<byte[]> window = new TreeSet<>(Arrays::compareUnsigned);
    byte[] horizon;

    boolean complete() {
      return horizon == null;
    }

    boolean covers(byte[] slot) {
      return horizon == null || Arrays.compareUnsigned(slot, horizon) <= 0;
    }

    void add(byte[] slot, int limit) {
      window.add(slot);
      if (window.size() > limit) {
        window.pollLast();
        horizon = window.last();
      }
    }
  }

  private final Map<String, Group> groups = new HashMap<>();
  private final NavigableSet<byte[]> due;
  private final int limit;

  private GroupHeads(NavigableSet<byte[]> due, int limit) {
    this.due = due;
    this.limit = limit;
  }

  static GroupHeads of(NavigableSet<byte[]> due, Function<String, Task> get) {
    return of(due, get, WINDOW);
  }

  /** Heads of {@code due} keeping {@code limit} slots per group (tests use small ones). */
  static GroupHeads of(NavigableSet<byte[]> due, Function<String, Task> get, int limit) {
    GroupHeads heads = new GroupHeads(due, limit);
    for (byte[] slot : due) {
      Task t = get.apply(IndexKeys.slotId(slot));
      if (t != null) {
        heads.add(t, slot);
      }
    }
    return heads;
  }

  void add(Task t, byte[] slot) {
    Group g = groups.computeIfAbsent(key(t.machine(), t.state()), k -> new Group());
    // A slot past the horizon is in the queue, where the window's refill will find it.
    if (g.covers(slot)) {
      g.add(slot, limit);
    }
  }

  void remove(Task t, byte[] slot) {
    String key = key(t.machine(), t.state());
    Group g = groups.get(key);
    // Only a whole group may go when empty: the queue may hold more of one past its horizon.
    if (g != null && g.window.remove(slot) && g.window.isEmpty() && g.complete()) {
      groups.remove(key);
    }
  }

  /** The first due time among the groups {@code budget} has room for, or null. */
  Instant first(ClaimLimits.Budget budget, Function<String, Task> get) {
    byte[] first = null;
    // A copy: a refill may drop an empty group.
    for (Map.Entry<String, Group> e : new ArrayList<>(groups.entrySet())) {
      int cut = e.getKey().indexOf('\u0000');
      if (!budget.hasRoom(e.getKey().substring(0, cut), e.getKey().substring(cut + 1))) {
        continue;
      }
      NavigableSet<byte[]> window = ready(e.getKey(), e.getValue(), 1, get);
      if (!window.isEmpty()
          && (first == null || Arrays.compareUnsigned(window.first(), first) < 0)) {
        first = window.first();
      }
    }
    return first == null ? null : IndexKeys.slotTime(first);
  }

  /** One group's walk: its next slot, and the rest. */
  private record Head(String machine, String state, byte[] slot, Iterator<byte[]> rest) {}

  /**
   * Up to {@code max} tasks due by {@code now} that {@code budget} has room for and that pass
   * {@code claimable} (which takes them from the budget), oldest due first.
   */
  List<Task> claimable(int max, Instant now, ClaimLimits.Budget budget,
      Predicate<Task> claimable, Function<String, Task> get) {
    byte[] end = IndexKeys.slotsAfter(now);
    PriorityQueue<Head> heads = new PriorityQueue<>((a, b) ->
        Arrays.compareUnsigned(a.slot(), b.slot()));
    for (Map.Entry<String, Group> e : new ArrayList<>(groups.entrySet())) {
      int cut = e.getKey().indexOf('\u0000');
      String machine = e.getKey().substring(0, cut);
      String state = e.getKey().substring(cut + 1);
      if (budget.hasRoom(machine, state)) {
        NavigableSet<byte[]> window = ready(e.getKey(), e.getValue(), max, get);
        next(machine, state, window.headSet(end, false).iterator(), heads);
      }
    }
    List<Task> found = new ArrayList<>();
    while (found.size() < max && !heads.isEmpty()) {
      Head h = heads.poll();
      if (!budget.hasRoom(h.machine(), h.state())) {
        continue;
      }
      Task t = get.apply(IndexKeys.slotId(h.slot()));
      if (t != null && claimable.test(t)) {
        found.add(t);
      }
      next(h.machine(), h.state(), h.rest(), heads);
    }
    return found;
  }

  /**
   * The group's window, refilled first when it holds fewer than {@code wanted} slots and the
   * queue may hold more: a walk of the queue from the horizon, reading each task for its group,
   * until the window is full again or the queue ends.
   */
  private NavigableSet<byte[]> ready(String key, Group g, int wanted, Function<String, Task> get) {
    if (g.complete() || g.window.size() >= wanted) {
      return g.window;
    }
    byte[] from = g.horizon;
    g.horizon = null;
    for (byte[] slot : due.tailSet(from, false)) {
      Task t = get.apply(IndexKeys.slotId(slot));
      if (t != null && key.equals(key(t.machine(), t.state()))) {
        g.add(slot, limit);
        if (!g.complete()) {
          break;
        }
      }
    }
    if (g.window.isEmpty() && g.complete()) {
      groups.remove(key);
    }
    return g.window;
  }

  /** Slots held on the heap, over all groups. */
  int kept() {
    return groups.values().stream().mapToInt(g -> g.window.size()).sum();
  }

  private static void next(String machine, String state, Iterator<byte[]> rest,
      PriorityQueue<Head> heads) {
    if (rest.hasNext()) {
      heads.add(new Head(machine, state, rest.next(), rest));
    }
  }

  private static String key(String machine, String state) {
    return machine + '\u0000' + state;
  }
}

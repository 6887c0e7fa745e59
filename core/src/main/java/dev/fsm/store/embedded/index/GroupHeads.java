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
 * The due queue split by group (machine and state), on the heap only, for claims with limits
 * ({@link ClaimLimits}): a claim merges the heads of the groups that still have room, oldest due
 * first, and never walks past the tasks of a full group. Walking the one queue instead cost
 * 0.5 to 2 s per claim with 100k due tasks of a capped machine ahead of others (measured), and
 * a bound on that walk starved whatever was behind them. Nothing of it is written: it is built
 * from the queue by the first claim with limits after the index opens (one read of each due
 * task: 0.5 to 3 s for 100k, about 100 bytes of heap each), so the file format, {@code store
 * check} and rebuilds are as they were.
 */
final class GroupHeads {

  private final Map<String, NavigableSet<byte[]>> groups = new HashMap<>();

  private GroupHeads() {}

  static GroupHeads of(NavigableSet<byte[]> due, Function<String, Task> get) {
    GroupHeads heads = new GroupHeads();
    for (byte[] slot : due) {
      Task t = get.apply(IndexKeys.slotId(slot));
      if (t != null) {
        heads.add(t, slot);
      }
    }
    return heads;
  }

  void add(Task t, byte[] slot) {
    groups.computeIfAbsent(key(t.machine(), t.state()),
        k -> new TreeSet<>(Arrays::compareUnsigned)).add(slot);
  }

  void remove(Task t, byte[] slot) {
    String key = key(t.machine(), t.state());
    NavigableSet<byte[]> group = groups.get(key);
    if (group != null && group.remove(slot) && group.isEmpty()) {
      groups.remove(key);
    }
  }

  /** The first due time among the groups {@code budget} has room for, or null. */
  Instant first(ClaimLimits.Budget budget) {
    byte[] first = null;
    for (Map.Entry<String, NavigableSet<byte[]>> e : groups.entrySet()) {
      int cut = e.getKey().indexOf('\u0000');
      byte[] head = e.getValue().first();
      if ((first == null || Arrays.compareUnsigned(head, first) < 0)
          && budget.hasRoom(e.getKey().substring(0, cut), e.getKey().substring(cut + 1))) {
        first = head;
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
    groups.forEach((key, slots) -> {
      int cut = key.indexOf('\u0000');
      String machine = key.substring(0, cut);
      String state = key.substring(cut + 1);
      if (budget.hasRoom(machine, state)) {
        next(machine, state, slots.headSet(end, false).iterator(), heads);
      }
    });
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

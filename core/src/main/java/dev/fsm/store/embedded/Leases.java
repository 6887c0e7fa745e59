package dev.fsm.store.embedded;

import dev.fsm.task.Lease;
import dev.fsm.task.Task;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * The leases held on an embedded store's tasks, on the heap only. One process owns the store
 * folder and every lease ends with it (a reopened store hands every task back at once, SPEC
 * section 4), so a lease never needs the disk: writing it to the journal and the index only cost
 * a runner index work and journal bytes on every claim, for records that every open threw away.
 *
 * <p>A leased task is held out of the index's due queue until its lease ends; then a claim puts
 * it back, where it keeps its place by due time, and the lease stays noted (as ended) so its
 * owner may still renew it while nobody else has claimed the task. Memory grows with the tasks
 * leased at once, not with the tasks stored. Not thread-safe: the store's lock guards it.
 */
final class Leases {

  /** A lease, and whether its task is back in the due queue because the lease ended. */
  private record Held(Lease lease, boolean queued) {}

  private record Ending(Instant until, String id) {}

  private static final Comparator<Ending> BY_END =
      Comparator.comparing(Ending::until).thenComparing(Ending::id);

  private final Map<String, Held> byId = new HashMap<>();
  /** Leases whose tasks are held out of the due queue, by end. */
  private final NavigableSet<Ending> ending = new TreeSet<>(BY_END);

  /** The task with its lease, if it has one; the index stores tasks without. */
  Task attach(Task t) {
    if (t == null) {
      return null;
    }
    Held held = byId.get(t.id());
    return held == null ? t : TaskIndex.withLease(t, held.lease());
  }

  /** True when the task is held out of the due queue by a lease that has not been seen to end. */
  boolean heldOut(String id) {
    Held held = byId.get(id);
    return held != null && !held.queued();
  }

  /**
   * Notes the lease a task has after a change ({@code null}: none), and gives whether the task is
   * then held out of the due queue.
   */
  boolean set(String id, Lease lease) {
    Held old = byId.get(id);
    if (old != null && !old.queued()) {
      ending.remove(new Ending(old.lease().until(), id));
    }
    if (lease == null) {
      byId.remove(id);
      return false;
    }
    byId.put(id, new Held(lease, false));
    ending.add(new Ending(lease.until(), id));
    return true;
  }

  /**
   * The tasks whose leases ended by {@code now}, oldest end first; they are noted as back in the
   * due queue, which the caller makes so.
   */
  List<String> endedBy(Instant now) {
    List<String> ended = new ArrayList<>();
    while (!ending.isEmpty() && !ending.first().until().isAfter(now)) {
      Ending e = ending.pollFirst();
      byId.put(e.id(), new Held(byId.get(e.id()).lease(), true));
      ended.add(e.id());
    }
    return ended;
  }

  /** The first end of a lease that holds a task out of the due queue, or null. */
  Instant nextEnd() {
    return ending.isEmpty() ? null : ending.first().until();
  }

  /**
   * Ends every lease, as the process's end would, and gives the tasks that were held out of the
   * due queue, for the caller to put back.
   */
  List<String> endAll() {
    List<String> heldOut = new ArrayList<>();
    for (Ending e : ending) {
      heldOut.add(e.id());
    }
    ending.clear();
    byId.clear();
    return heldOut;
  }

  /** How many tasks carry a lease. */
  int size() {
    return byId.size();
  }
}

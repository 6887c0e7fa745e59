package dev.fsm.store.embedded.write;

import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.task.Lease;
import dev.fsm.task.Pausing;
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
 * owner may still renew it while nobody else has claimed the task. Each lease also knows its
 * task's history length, so that an outcome is checked and appended without the index. Memory
 * grows with the tasks leased at once, not with the tasks stored. Not thread-safe: the store's
 * lock guards it (see {@link StoreGate}).
 */
public final class Leases {

  /**
   * A lease; whether its task is back in the due queue because the lease ended; how many
   * history entries the task has; its pending pause ({@code pause --after-step}), or null; and
   * the number its {@link Ending} was given.
   */
  private record Held(Lease lease, boolean queued, int historyLength, Pausing pausing,
      long order) {}

  /** A lease's end; {@code order} tells apart the leases one claim grants with one end. */
  private record Ending(Instant until, long order, String id) {}

  /**
   * By end, then the order the leases were noted in: a claim grants its whole batch one end, and
   * telling those apart by id compared 26-character ids sharing most of their prefix, on every
   * claim and outcome (4% of the CPU with 64 writers).
   */
  private static final Comparator<Ending> BY_END = (a, b) -> {
    int c = a.until.compareTo(b.until);
    return c != 0 ? c : Long.compare(a.order, b.order);
  };

  private final Map<String, Held> byId = new HashMap<>();
  /** Leases whose tasks are held out of the due queue, by end. */
  private final NavigableSet<Ending> ending = new TreeSet<>(BY_END);
  private long noted;

  /** The task with its lease, if it has one; the index stores tasks without. */
  public Task attach(Task t) {
    if (t == null || byId.isEmpty()) {
      return t;
    }
    Held held = byId.get(t.id());
    return held == null ? t : t.withLease(held.lease());
  }

  /** The task's lease, ended or not; null when it has none. */
  public Lease of(String id) {
    Held held = byId.get(id);
    return held == null ? null : held.lease();
  }

  /** The history length of a leased task; see {@link #of}. */
  public int historyLength(String id) {
    return byId.get(id).historyLength();
  }

  /** The pending pause of a leased task, or null; see {@link #of}. */
  public Pausing pausing(String id) {
    Held held = byId.get(id);
    return held == null ? null : held.pausing();
  }

  /** True when the task is held out of the due queue by a lease that has not been seen to end. */
  public boolean heldOut(String id) {
    Held held = byId.get(id);
    return held != null && !held.queued();
  }

  /**
   * Notes the lease a task has from now on ({@code null}: none), its history length and pending
   * pause, and gives whether the task is then held out of the due queue.
   */
  public boolean set(String id, Lease lease, int historyLength, Pausing pausing) {
    Held old = lease == null && byId.isEmpty() ? null : byId.get(id);
    if (old != null && !old.queued()) {
      ending.remove(new Ending(old.lease().until(), old.order(), id));
    }
    if (lease == null) {
      if (old != null) {
        byId.remove(id);
      }
      return false;
    }
    long order = noted++;
    byId.put(id, new Held(lease, false, historyLength, pausing, order));
    ending.add(new Ending(lease.until(), order, id));
    return true;
  }

  /**
   * Notes the leases that an event's tasks have after it (a task keeps the lease its snapshot
   * carries), and gives the event with where a lease held each task before and after.
   */
  TaskIndex.Appended noted(StoreEvent event) {
    List<Task> tasks;
    int historyAfter;
    if (event instanceof StoreEvent.Created c) {
      tasks = c.tasks();
      historyAfter = 0;
    } else if (event instanceof StoreEvent.Changed c) {
      tasks = List.of(c.task());
      historyAfter = c.historyIndex() + 1;
    } else {
      if (event instanceof StoreEvent.Purged p && !byId.isEmpty()) {
        // A purged task keeps no lease: its id may name a new task.
        p.ids().forEach(id -> set(id, null, 0, null));
      }
      return TaskIndex.Appended.unleased(event);
    }
    boolean[] before = null;
    boolean[] after = null;
    for (int i = 0; i < tasks.size(); i++) {
      Task t = tasks.get(i);
      if (t.lease() == null && byId.isEmpty()) {
        continue;
      }
      boolean wasOut = heldOut(t.id());
      boolean isOut = set(t.id(), t.lease(), historyAfter, t.pausing());
      if (wasOut || isOut) {
        before = before == null ? new boolean[tasks.size()] : before;
        after = after == null ? new boolean[tasks.size()] : after;
        before[i] = wasOut;
        after[i] = isOut;
      }
    }
    return new TaskIndex.Appended(event, before, after);
  }

  /**
   * The tasks whose leases ended by {@code now}, oldest end first; they are noted as back in the
   * due queue, which the caller makes so.
   */
  public List<String> endedBy(Instant now) {
    List<String> ended = new ArrayList<>();
    while (!ending.isEmpty() && !ending.first().until().isAfter(now)) {
      Ending e = ending.pollFirst();
      Held held = byId.get(e.id());
      byId.put(e.id(), new Held(held.lease(), true, held.historyLength(), held.pausing(),
          held.order()));
      ended.add(e.id());
    }
    return ended;
  }

  /** The first end of a lease that holds a task out of the due queue, or null. */
  public Instant nextEnd() {
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
}

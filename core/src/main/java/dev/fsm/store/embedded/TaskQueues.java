package dev.fsm.store.embedded;

import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableSet;
import java.util.function.Function;

/**
 * The index's time queues, as in InMemoryStore: a scheduled task sits in exactly one, unleased
 * ones by due time and leased ones by the end of their lease, each keyed (epoch second, nano, id)
 * so that claims are O(log n) and oldest due first. A task that carries a lease but is not in
 * the lease queue (its lease ran out and it went back to the due queue, or it is not scheduled)
 * is also in {@code otherLeases}, so that dropping every lease never scans all tasks.
 */
final class TaskQueues {

  private final NavigableSet<Object[]> due;
  private final NavigableSet<Object[]> leases;
  private final NavigableSet<String> otherLeases;

  TaskQueues(NavigableSet<Object[]> due, NavigableSet<Object[]> leases,
      NavigableSet<String> otherLeases) {
    this.due = due;
    this.leases = leases;
    this.otherLeases = otherLeases;
  }

  void add(Task t) {
    boolean scheduled = t.due() != null && !t.status().isTerminal()
        && t.status() != TaskStatus.PAUSED;
    if (scheduled && t.lease() != null) {
      leases.add(slot(t.lease().until(), t.id()));
    } else if (scheduled) {
      due.add(slot(t.due(), t.id()));
    } else if (t.lease() != null) {
      otherLeases.add(t.id());
    }
  }

  // A leased task may have gone back to the due queue when its lease ran out, so try both.
  void remove(Task t) {
    if (t.due() != null) {
      due.remove(slot(t.due(), t.id()));
    }
    if (t.lease() != null) {
      leases.remove(slot(t.lease().until(), t.id()));
      otherLeases.remove(t.id());
    }
  }

  /**
   * Moves tasks whose lease ended by {@code now} back to the due queue, where they keep their
   * place by due time. The tasks keep their expired lease, which the owner may still renew.
   */
  void expire(Instant now, Function<String, Task> tasks) {
    List<Object[]> ended = new ArrayList<>();
    for (Object[] s : leases.headSet(slot(now, null), true)) {
      ended.add(s);
    }
    for (Object[] s : ended) {
      String id = (String) s[2];
      leases.remove(s);
      due.add(slot(tasks.apply(id).due(), id));
      otherLeases.add(id);
    }
  }

  /** Ids of tasks due by {@code now}, oldest due first. */
  Iterable<String> dueBy(Instant now) {
    NavigableSet<Object[]> slots = due.headSet(slot(now, null), true);
    // Not slots.stream(): a stream asks a MapDB subset its size, which counts every entry.
    return () -> {
      Iterator<Object[]> it = slots.iterator();
      return new Iterator<>() {
        @Override
        public boolean hasNext() {
          return it.hasNext();
        }

        @Override
        public String next() {
          return (String) it.next()[2];
        }
      };
    };
  }

  /** Ids of every task that carries a lease. */
  List<String> leased() {
    List<String> held = new ArrayList<>();
    for (Object[] s : leases) {
      held.add((String) s[2]);
    }
    held.addAll(otherLeases);
    return held;
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

  /** A queue key; a null id sorts after every id at that instant. */
  private static Object[] slot(Instant at, String id) {
    return new Object[] {at.getEpochSecond(), at.getNano(), id};
  }
}

package dev.fsm.store.embedded;

import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import org.mapdb.BTreeMap;
import org.mapdb.DBException;

/**
 * The index's tasks by group (machine, state, status): a sorted set of (machine, state, status,
 * id) so filtered lists read only matching tasks, and a count per group, kept as tasks move.
 * Groups are few (machines times states times statuses), so a query may visit them all.
 */
final class TaskGroups {

  private static final Comparator<TaskCount> COUNT_ORDER = Comparator
      .comparing(TaskCount::machine).thenComparing(TaskCount::state)
      .thenComparing(TaskCount::status);

  private final NavigableSet<Object[]> members;
  private final BTreeMap<Object[], Long> counts;

  TaskGroups(NavigableSet<Object[]> members, BTreeMap<Object[], Long> counts) {
    this.members = members;
    this.counts = counts;
  }

  /** Moves a task from its previous group (none for a new task) to its next one. */
  void move(Task previous, Task next) {
    if (previous != null && previous.machine().equals(next.machine())
        && previous.state().equals(next.state()) && previous.status() == next.status()) {
      return;
    }
    if (previous != null) {
      members.remove(member(previous));
      count(previous, -1);
    }
    members.add(member(next));
    count(next, 1);
  }

  /** How many tasks all groups hold together. */
  long total() {
    long sum = 0;
    for (Long n : counts.values()) {
      sum += n;
    }
    return sum;
  }

  /** Touches both ends of the members set and every count; see {@link TaskIndex#check}. */
  void check() {
    if (!members.isEmpty()) {
      members.first();
      members.last();
    }
    for (Object[] group : counts.keySet()) {
      if (TaskStatus.parse((String) group[2]).isEmpty()) {
        throw new DBException.DataCorruption("unknown status " + group[2] + " in task counts");
      }
    }
  }

  /** Counts per group, ordered by machine, state and status; empty groups are left out. */
  List<TaskCount> counts() {
    List<TaskCount> all = new ArrayList<>();
    for (Map.Entry<Object[], Long> e : counts.entrySet()) {
      Object[] g = e.getKey();
      all.add(new TaskCount((String) g[0], (String) g[1],
          TaskStatus.parse((String) g[2]).orElseThrow(), e.getValue()));
    }
    all.sort(COUNT_ORDER);
    return all;
  }

  /**
   * A page of ids of tasks matching the query's machine, state and status filters: at most
   * {@code limit}, in id order, after {@code afterId}.
   */
  List<String> ids(TaskQuery query) {
    List<String> ids = new ArrayList<>();
    for (Object[] g : counts.keySet()) {
      if (!query.machine().map(g[0]::equals).orElse(true)
          || !query.state().map(g[1]::equals).orElse(true)
          || !query.status().map(s -> s.word().equals(g[2])).orElse(true)) {
        continue;
      }
      Object[] from = query.afterId().map(a -> new Object[] {g[0], g[1], g[2], a}).orElse(g);
      // A null id sorts after every id, so this bounds the group's members from above.
      Object[] to = {g[0], g[1], g[2], null};
      int taken = 0;
      for (Object[] m : members.subSet(from, query.afterId().isEmpty(), to, true)) {
        ids.add((String) m[3]);
        if (++taken == query.limit()) {
          break;
        }
      }
    }
    Collections.sort(ids);
    return ids.size() > query.limit() ? ids.subList(0, query.limit()) : ids;
  }

  private void count(Task t, long delta) {
    Object[] group = {t.machine(), t.state(), t.status().word()};
    Long before = counts.get(group);
    long after = (before == null ? 0 : before) + delta;
    if (after == 0) {
      counts.remove(group);
    } else {
      counts.put(group, after);
    }
  }

  private static Object[] member(Task t) {
    return new Object[] {t.machine(), t.state(), t.status().word(), t.id()};
  }
}

package dev.fsm.store.embedded.index;

import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.TreeMap;
import org.mapdb.BTreeMap;

/**
 * The index's tasks by group (machine, state, status): a sorted set of {@link IndexKeys#member}
 * keys so filtered lists read only matching tasks, and a count per group, kept as tasks move.
 * Groups are few (machines times states times statuses), so the counts live on the heap, where
 * keeping them costs nothing per change; they are saved to the index at a clean close and loaded
 * again at open (a rebuild counts afresh). A query may visit every group.
 */
final class TaskGroups {

  /** A group's name. */
  /**
   * A machine, state and status. Its equals and hash code are written out: a record's are made
   * at their first call (an invokedynamic bootstrap), which was a tenth of a one-shot `fsm
   * start`, whose open counts the groups.
   */
  private record Group(String machine, String state, TaskStatus status) {

    @Override
    public boolean equals(Object o) {
      return o instanceof Group g && Objects.equals(machine, g.machine)
          && Objects.equals(state, g.state) && status == g.status;
    }

    @Override
    public int hashCode() {
      return (Objects.hashCode(machine) * 31 + Objects.hashCode(state)) * 31
          + Objects.hashCode(status);
    }
  }

  private static final Comparator<Group> ORDER = Comparator.comparing(Group::machine)
      .thenComparing(Group::state).thenComparing(Group::status);

  private final NavigableSet<byte[]> members;
  private final BTreeMap<byte[], Long> saved;
  /**
   * Unordered, and sorted when listed: a move updates two counts, and the tree map's composed
   * comparator was 4.5% of the CPU samples with 64 writers one by one.
   */
  private final HashMap<Group, Long> counts = new HashMap<>();

  TaskGroups(NavigableSet<byte[]> members, BTreeMap<byte[], Long> saved) {
    this.members = members;
    this.saved = saved;
    for (Map.Entry<byte[], Long> e : saved.entrySet()) {
      IndexKeys.Group g = IndexKeys.groupOf(e.getKey());
      counts.put(new Group(g.machine(), g.state(), g.status()), e.getValue());
    }
  }

  /** Writes the counts to the index, for the next open; done at a clean close. */
  void save() {
    saved.clear();
    for (Map.Entry<Group, Long> e : counts.entrySet()) {
      Group g = e.getKey();
      saved.put(IndexKeys.group(g.machine(), g.state(), g.status()), e.getValue());
    }
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

  /** Takes a purged task out of its group. */
  void remove(Task previous) {
    members.remove(member(previous));
    count(previous, -1);
  }

  /** How many tasks all groups hold together. */
  long total() {
    long sum = 0;
    for (Long n : counts.values()) {
      sum += n;
    }
    return sum;
  }

  /** How many tasks the query's machine, state and status filters match (from the counts). */
  long matching(TaskQuery query) {
    long sum = 0;
    for (Map.Entry<Group, Long> e : counts.entrySet()) {
      if (selects(e.getKey(), query)) {
        sum += e.getValue();
      }
    }
    return sum;
  }

  private static boolean selects(Group g, TaskQuery query) {
    return query.machine().map(g.machine()::equals).orElse(true)
        && query.state().map(g.state()::equals).orElse(true)
        && (query.statuses().isEmpty() || query.storedStatuses().contains(g.status()));
  }

  /**
   * Touches the members set's last entry, which reads its rightmost path; not its first, as
   * tasks leave each group from its front and MapDB never merges the nodes they emptied (see
   * TaskQueues#check).
   */
  void check() {
    try {
      members.last();
    } catch (NoSuchElementException empty) {
      // No task is stored; TaskIndex#check has compared the counts with the tasks.
    }
  }

  /** Counts per group, ordered by machine, state and status; empty groups are left out. */
  List<TaskCount> counts() {
    List<TaskCount> all = new ArrayList<>(counts.size());
    TreeMap<Group, Long> sorted = new TreeMap<>(ORDER);
    sorted.putAll(counts);
    for (Map.Entry<Group, Long> e : sorted.entrySet()) {
      Group g = e.getKey();
      all.add(new TaskCount(g.machine(), g.state(), g.status(), e.getValue()));
    }
    return all;
  }

  /**
   * A page of ids of tasks matching the query's machine, state and status filters: at most
   * {@code limit}, in the query's id order, after {@code afterId} in that order.
   */
  List<String> ids(TaskQuery query) {
    List<byte[]> ids = new ArrayList<>();
    for (Group g : counts.keySet()) {
      if (!selects(g, query)) {
        continue;
      }
      byte[] key = IndexKeys.group(g.machine(), g.state(), g.status());
      int taken = 0;
      for (byte[] m : members(key, query)) {
        ids.add(Arrays.copyOfRange(m, key.length, m.length));
        if (++taken == query.limit()) {
          break;
        }
      }
    }
    // UTF-8 bytes compared unsigned: the order of the task map's keys, code point order.
    Comparator<byte[]> byId = Arrays::compareUnsigned;
    ids.sort(query.descending() ? byId.reversed() : byId);
    List<String> page = new ArrayList<>(Math.min(ids.size(), query.limit()));
    for (int i = 0; i < ids.size() && i < query.limit(); i++) {
      page.add(IndexKeys.idAt(ids.get(i), 0));
    }
    return page;
  }

  /**
   * The members of the group with this key that come after the query's {@code afterId}, in the
   * query's order. The group key itself is never a member (members are longer), so including it
   * as a bound takes in exactly the group.
   */
  private NavigableSet<byte[]> members(byte[] key, TaskQuery query) {
    byte[] end = IndexKeys.after(key);
    if (query.afterId().isEmpty()) {
      NavigableSet<byte[]> group = members.subSet(key, true, end, false);
      return query.descending() ? group.descendingSet() : group;
    }
    byte[] at = IndexKeys.concat(key, IndexKeys.id(query.afterId().get()));
    return query.descending() ? members.subSet(key, true, at, false).descendingSet()
        : members.subSet(at, false, end, false);
  }

  private void count(Task t, long delta) {
    // A count that reaches zero is removed: empty groups are left out of every listing.
    counts.merge(new Group(t.machine(), t.state(), t.status()), delta,
        (before, change) -> before + change == 0 ? null : before + change);
  }

  private static byte[] member(Task t) {
    return IndexKeys.member(t.machine(), t.state(), t.status(), t.id());
  }
}

package dev.fsm.store;

import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What one batch of a purge did: the tasks it deleted (or, for a dry run, would delete) counted
 * per machine, state and status; the id to continue after, empty once every candidate was
 * examined; and how long the batch held the store's lock.
 */
public record PurgeBatch(List<TaskCount> purged, Optional<String> resumeAfter, Duration held) {

  public PurgeBatch {
    purged = List.copyOf(purged);
  }

  /** How many tasks the batch deleted or counted. */
  public long total() {
    long sum = 0;
    for (TaskCount c : purged) {
      sum += c.count();
    }
    return sum;
  }

  /** Tasks counted per machine, state and status, in that order. */
  public static List<TaskCount> tally(Collection<Task> tasks) {
    record Group(String machine, String state, TaskStatus status) {}
    Map<Group, Long> counts = new TreeMap<>(Comparator.comparing(Group::machine)
        .thenComparing(Group::state).thenComparing(Group::status));
    for (Task t : tasks) {
      counts.merge(new Group(t.machine(), t.state(), t.status()), 1L, Long::sum);
    }
    List<TaskCount> tallied = new ArrayList<>();
    counts.forEach((g, n) -> tallied.add(new TaskCount(g.machine(), g.state(), g.status(), n)));
    return tallied;
  }
}

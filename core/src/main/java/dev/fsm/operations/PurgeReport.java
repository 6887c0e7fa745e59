package dev.fsm.operations;

import dev.fsm.store.TaskCount;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What a purge deleted, or with {@code dryRun} would delete: tasks per machine, state and status;
 * how many batches it took and the longest time one held the store's lock, which is how long a
 * runner sharing the store could have waited for it.
 */
public record PurgeReport(List<TaskCount> purged, boolean dryRun, int batches,
    Duration longestHold, Duration took) {

  public PurgeReport {
    purged = List.copyOf(purged);
  }

  /** How many tasks it deleted or counted. */
  public long total() {
    long sum = 0;
    for (TaskCount c : purged) {
      sum += c.count();
    }
    return sum;
  }

  /** The counts merged across batches: one per machine, state and status. */
  static List<TaskCount> merged(List<TaskCount> counts) {
    List<TaskCount> out = new ArrayList<>();
    for (TaskCount c : counts) {
      int at = -1;
      for (int i = 0; i < out.size(); i++) {
        TaskCount o = out.get(i);
        if (o.machine().equals(c.machine()) && o.state().equals(c.state())
            && o.status() == c.status()) {
          at = i;
          break;
        }
      }
      if (at < 0) {
        out.add(c);
      } else {
        TaskCount o = out.get(at);
        out.set(at, new TaskCount(o.machine(), o.state(), o.status(), o.count() + c.count()));
      }
    }
    out.sort(Comparator.comparing(TaskCount::machine).thenComparing(TaskCount::state)
        .thenComparing(TaskCount::status));
    return out;
  }
}

package dev.fsm.store.transfer;

import dev.fsm.store.MachineVersion;
import dev.fsm.store.Store;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskNotFoundException;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.Transition;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What an export reads: a store opened here ({@link #of}), or one a runner serves, read through
 * its control socket a page at a time. Either way the pages come from {@link #of}'s reading of the
 * store, so both export the same lines.
 */
public interface ExportSource {

  /** Transitions after which a page stops taking tasks, so a page's size stays bounded. */
  int PAGE_TRANSITIONS = 20_000;

  /** How often a task that keeps changing is read before it is taken as it is. */
  int READS = 5;

  /** Every machine version, of every machine. */
  List<MachineVersion> allVersions();

  /** How many tasks there are now, for progress. */
  long taskCount();

  /** Up to {@code limit} tasks whose ids sort after {@code after} (from the first if null). */
  ExportPage page(String after, int limit);

  /** The export of {@code store}, read through the {@link Store} interface only. */
  static ExportSource of(Store store) {
    return new ExportSource() {
      @Override
      public List<MachineVersion> allVersions() {
        return store.allVersions();
      }

      @Override
      public long taskCount() {
        return store.counts().stream().mapToLong(TaskCount::count).sum();
      }

      @Override
      public ExportPage page(String after, int limit) {
        TaskQuery query = after == null ? TaskQuery.all(limit) : TaskQuery.all(limit).after(after);
        List<Task> listed = store.list(query);
        List<TaskHistory> tasks = new ArrayList<>(listed.size());
        int transitions = 0;
        for (Task t : listed) {
          if (transitions >= PAGE_TRANSITIONS) {
            return new ExportPage(tasks, tasks.get(tasks.size() - 1).task().id());
          }
          Optional<TaskHistory> read = read(store, t);
          if (read.isPresent()) {
            tasks.add(read.get());
            transitions += read.get().history().size();
          }
        }
        boolean last = listed.size() < limit;
        return new ExportPage(tasks, last ? null : listed.get(listed.size() - 1).id());
      }
    };
  }

  /**
   * The task with a history that matches it, or empty when it was purged since it was listed.
   * A task that a runner changes between the reads is read again: a history taken while the task
   * stayed as it was belongs to it (every history entry changes the task), and after a few tries
   * the task as it is after its history was read is taken with that history.
   */
  private static Optional<TaskHistory> read(Store store, Task listed) {
    Task task = listed;
    try {
      for (int tries = 1; ; tries++) {
        List<Transition> history = store.history(task.id());
        Optional<Task> now = store.get(task.id());
        if (now.isEmpty()) {
          return Optional.empty();
        }
        if (now.get().equals(task) || tries == READS) {
          return Optional.of(new TaskHistory(now.get(), history));
        }
        task = now.get();
      }
    } catch (TaskNotFoundException e) {
      // Purged since the page was listed (by a runner, or another process): not exported.
      return Optional.empty();
    }
  }
}

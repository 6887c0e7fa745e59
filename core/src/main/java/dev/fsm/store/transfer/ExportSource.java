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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What an export reads: a store opened here ({@link #of}), or one a runner serves, read through
 * its control socket a page at a time. Either way the pages come from {@link #of}'s reading of the
 * store, so both export the same lines.
 */
public interface ExportSource {

  /** Transitions after which a page stops taking tasks, so a page's size stays bounded. */
  int PAGE_TRANSITIONS = 20_000;

  /** Tasks whose histories are asked for in one call. */
  int HISTORIES_AT_ONCE = 100;

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
        String next = listed.size() < limit ? null : listed.get(listed.size() - 1).id();
        List<Task> taken = new ArrayList<>(listed.size());
        List<List<Transition>> histories = new ArrayList<>(listed.size());
        int transitions = 0;
        for (int from = 0; from < listed.size(); from += HISTORIES_AT_ONCE) {
          if (transitions >= PAGE_TRANSITIONS) {
            next = taken.get(taken.size() - 1).id();
            break;
          }
          List<Task> some = listed.subList(from, Math.min(listed.size(), from + HISTORIES_AT_ONCE));
          // One read for many: a store walks their histories at once. A task purged since the
          // listing has none here and is found gone below.
          Map<String, List<Transition>> read = store.histories(some.stream().map(Task::id)
              .toList());
          for (Task t : some) {
            List<Transition> history = read.getOrDefault(t.id(), List.of());
            taken.add(t);
            histories.add(history);
            transitions += history.size();
          }
        }
        // Listed again, one range read: a task unchanged since the first listing has the
        // history read in between (every history entry changes its task); others are read again.
        Map<String, Task> again = new HashMap<>();
        store.list(query).forEach(t -> again.put(t.id(), t));
        List<TaskHistory> tasks = new ArrayList<>(taken.size());
        for (int i = 0; i < taken.size(); i++) {
          Task first = taken.get(i);
          Task now = again.get(first.id());
          if (first.equals(now)) {
            tasks.add(new TaskHistory(first, histories.get(i)));
          } else {
            read(store, now == null ? first : now).ifPresent(tasks::add);
          }
        }
        return new ExportPage(tasks, next);
      }
    };
  }

  /**
   * The task with a history that matches it, or empty when it was purged: read until it stays
   * the same across a read of its history, and after a few tries taken as it is after its
   * history was read, with that history.
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

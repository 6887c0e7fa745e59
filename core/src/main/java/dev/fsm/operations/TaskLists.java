package dev.fsm.operations;

import dev.fsm.FsmException;
import dev.fsm.engine.Contexts;
import dev.fsm.engine.ShownStatuses;
import dev.fsm.store.Store;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A list request answered from a store: read a few tasks at a time, so that whoever answers it
 * (a runner with a 128 MiB heap, say) holds only what the answer carries.
 */
final class TaskLists {

  /**
   * Tasks read from the store at a time: contexts go to 1 MiB each, and a runner, which serves
   * these operations to other commands, runs with a heap of 128 MiB.
   */
  static final int PAGE = 32;

  /** Characters of contexts one list carries at most. */
  static final long CONTEXT_CHARS = 16L << 20;

  private TaskLists() {}

  /** The tasks {@link Operations#list(TaskQuery, boolean)} gives, read from {@code store}. */
  static List<Task> list(Store store, TaskQuery query, boolean contexts) {
    // Read a few at a time and kept without their contexts when not wanted, so a page of tasks
    // with contexts of up to 1 MiB each never fills the heap of the runner that serves it.
    ShownStatuses shown = splitsRunnable(query.statuses())
        ? new ShownStatuses(store::versions) : null;
    // By updated time no index keeps the order, and each read scans every matching task: one
    // read, then, as many as asked (the store keeps only those in memory as it scans).
    int size = query.sort() == TaskQuery.Sort.UPDATED ? query.limit()
        : Math.min(query.limit(), PAGE);
    if (shown != null) {
      // Some tasks read may show otherwise: at least a page, or a read per task kept.
      size = Math.max(size, PAGE);
    }
    TaskQuery first = query.withLimit(size);
    List<Task> kept = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    long contextChars = 0;
    TaskQuery page = first;
    while (true) {
      List<Task> tasks = store.list(page);
      for (Task t : tasks) {
        // The store selects runnable for both runnable and waiting: keep those shown as asked.
        // A task that moved in the order between two reads comes once.
        if ((shown == null || query.statuses().contains(shown.of(t))) && seen.add(t.id())) {
          if (contexts) {
            contextChars += t.context().length();
            if (contextChars > CONTEXT_CHARS) {
              throw new FsmException("the " + (kept.size() + 1) + " tasks listed so far hold"
                  + " more than " + (CONTEXT_CHARS >> 20) + " MiB of contexts, more than"
                  + " one list carries; list fewer (--limit), or read them all with `fsm store"
                  + " export`");
            }
          }
          kept.add(contexts ? t : t.withContext(Contexts.EMPTY));
          if (kept.size() == query.limit()) {
            return kept;
          }
        }
      }
      if (tasks.size() < page.limit()) {
        return kept;
      }
      page = first.after(tasks.get(tasks.size() - 1));
    }
  }

  /**
   * The tasks {@link Operations#recentlyChanged} gives, read from {@code store}: shown as the
   * filter's statuses ask (the store selects runnable and waiting tasks together, so it is asked
   * for more when the filter takes only one of them; without contexts, many are small).
   */
  static List<Task> recentlyChanged(Store store, TaskQuery filter) {
    ShownStatuses shown = splitsRunnable(filter.statuses())
        ? new ShownStatuses(store::versions) : null;
    // Four times as many when a shown status is asked for: enough, bounded, under the lock.
    List<Task> found = store.recentlyChanged(shown == null ? filter
        : filter.withLimit((int) Math.min(4L * filter.limit(), ListPages.MAX_REQUEST)));
    List<Task> kept = new ArrayList<>(Math.min(found.size(), filter.limit()));
    for (Task t : found) {
      if (shown == null || filter.statuses().contains(shown.of(t))) {
        kept.add(t);
        if (kept.size() == filter.limit()) {
          break;
        }
      }
    }
    return kept;
  }

  /** True when the statuses take one of runnable and waiting but not the other. */
  private static boolean splitsRunnable(Set<ShownStatus> statuses) {
    return statuses.contains(ShownStatus.RUNNABLE) != statuses.contains(ShownStatus.WAITING);
  }
}

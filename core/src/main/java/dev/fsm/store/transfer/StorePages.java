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
 * Pages of an export read from a {@link Store}, bounded in memory (a runner serving the store
 * builds them on its own heap): read a few tasks at a time, each few with one read of their
 * histories, and ended early once the page holds many history entries or context bytes.
 */
final class StorePages implements ExportSource {

  /** Tasks listed, and their histories read, at a time. */
  static final int AT_ONCE = 20;

  /** History entries after which a page takes no more tasks. */
  static final int PAGE_TRANSITIONS = 20_000;

  /** Characters of contexts after which a page takes no more tasks (contexts go to 1 MiB). */
  static final long PAGE_CONTEXT_CHARS = 4L << 20;

  /** How often a task that keeps changing is read before it is taken as it is. */
  static final int READS = 5;

  private final Store store;

  StorePages(Store store) {
    this.store = store;
  }

  @Override
  public List<MachineVersion> allVersions() {
    return store.allVersions();
  }

  @Override
  public long taskCount() {
    return store.counts().stream().mapToLong(TaskCount::count).sum();
  }

  @Override
  public ExportPage page(String after, int asked) {
    int limit = Math.max(1, asked);
    List<TaskHistory> tasks = new ArrayList<>();
    long transitions = 0;
    long contextChars = 0;
    String cursor = after;
    while (tasks.size() < limit && transitions < PAGE_TRANSITIONS
        && contextChars < PAGE_CONTEXT_CHARS) {
      TaskQuery query = TaskQuery.all(Math.min(AT_ONCE, limit - tasks.size()));
      if (cursor != null) {
        query = query.after(cursor);
      }
      List<Task> listed = store.list(query);
      for (TaskHistory t : consistent(query, listed)) {
        tasks.add(t);
        transitions += t.history().size();
        contextChars += t.task().context().length();
      }
      if (listed.size() < query.limit()) {
        return new ExportPage(tasks, null);
      }
      cursor = listed.get(listed.size() - 1).id();
    }
    return new ExportPage(tasks, cursor);
  }

  /**
   * The listed tasks, each with the history it had when it was listed: their histories in one
   * read, then the same listing again; a task unchanged across both listings has the history
   * read in between (every history entry changes its task), and one that changed is read
   * again on its own. A task purged meanwhile is left out.
   */
  private List<TaskHistory> consistent(TaskQuery query, List<Task> listed) {
    Map<String, List<Transition>> histories = store.histories(listed.stream().map(Task::id)
        .toList());
    Map<String, Task> again = new HashMap<>();
    store.list(query).forEach(t -> again.put(t.id(), t));
    List<TaskHistory> tasks = new ArrayList<>(listed.size());
    for (Task first : listed) {
      Task now = again.get(first.id());
      if (first.equals(now)) {
        tasks.add(new TaskHistory(first, histories.getOrDefault(first.id(), List.of())));
      } else {
        read(now == null ? first : now).ifPresent(tasks::add);
      }
    }
    return tasks;
  }

  /**
   * The task with a history that matches it, or empty when it was purged: read until it stays
   * the same across a read of its history, and after a few tries taken as it is after its
   * history was read, with that history.
   */
  private Optional<TaskHistory> read(Task listed) {
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
      // Purged since it was listed (by a runner, or another process): not exported.
      return Optional.empty();
    }
  }
}

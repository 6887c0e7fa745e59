package dev.fsm.operations;

import dev.fsm.FsmException;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Task;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * A list of any length read a page at a time through {@link Operations#list}, so that neither
 * this process nor the runner serving it ever holds more than a page of tasks: {@code fsm ls
 * --limit 1000000} on a million tasks once built the whole list in the runner's 128 MiB heap.
 */
public final class ListPages {

  /** Tasks read at a time in an order an index keeps (by id or creation): one short walk. */
  public static final int PAGE = 2_000;

  /**
   * Tasks read at a time by updated time, an order no index keeps: each read scans every
   * matching task and keeps a page, so pages are larger to make fewer scans (about 10 MiB of
   * tasks without contexts).
   */
  public static final int UPDATED_PAGE = 20_000;

  /**
   * The most tasks one list request may ask a runner for: a client that asks for more is older
   * than this rule, and a runner answering it could run out of heap.
   */
  public static final int MAX_REQUEST = 50_000;

  private ListPages() {}

  /** How many tasks to read at a time for a query in {@code sort}'s order. */
  public static int pageSize(TaskQuery.Sort sort) {
    return sort == TaskQuery.Sort.UPDATED ? UPDATED_PAGE : PAGE;
  }

  /**
   * Hands each task of the query to {@code each}, in the query's order, up to the query's limit,
   * until it answers false; returns how many it was given. A task that moves later in the order
   * while the pages are read (by updated time, a task that changes) is given once.
   */
  public static long each(Operations operations, TaskQuery query, boolean contexts,
      Predicate<Task> each) {
    return each(operations, query, contexts, pageSize(query.sort()), each);
  }

  static long each(Operations operations, TaskQuery query, boolean contexts, int pageSize,
      Predicate<Task> each) {
    int size = Math.min(query.limit(), pageSize);
    TaskQuery first = query.withLimit(size);
    // Only an order that changes as tasks do can show a task twice.
    Set<String> given = query.sort() == TaskQuery.Sort.UPDATED ? new HashSet<>() : null;
    long n = 0;
    TaskQuery page = first;
    while (true) {
      List<Task> tasks = operations.list(page, contexts);
      for (Task t : tasks) {
        if (given != null && !given.add(t.id())) {
          continue;
        }
        n++;
        if (!each.test(t) || n == query.limit()) {
          return n;
        }
      }
      if (tasks.size() < page.limit()) {
        return n;
      }
      page = first.after(tasks.get(tasks.size() - 1));
    }
  }

  /** Refuses a request for more tasks at once than {@link #MAX_REQUEST}. */
  public static void checkRequest(TaskQuery query) {
    if (query.limit() > MAX_REQUEST) {
      throw new FsmException("a list request may ask for at most " + MAX_REQUEST + " tasks at"
          + " once, and this one asks for " + query.limit() + ": the fsm that sent it is"
          + " older than this runner; use the same fsm for both");
    }
  }
}

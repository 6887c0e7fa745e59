package dev.fsm.operations;

import dev.fsm.FsmException;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Task;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
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
   * tasks without contexts: 50,000 ran a runner with a 32 MiB heap out of it).
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
   * until it answers false; returns how many it was given. By updated time, an order that
   * changes as tasks do, a task is given once however it moves while the pages are read, and
   * none is skipped: oldest first, a task that changes moves ahead of the pages still to read;
   * newest first, it moves behind the pages read, so those are read last, after the rest.
   */
  public static long each(Operations operations, TaskQuery query, boolean contexts,
      Predicate<Task> each) {
    return each(operations, query, contexts, pageSize(query.sort()), each);
  }

  static long each(Operations operations, TaskQuery query, boolean contexts, int pageSize,
      Predicate<Task> each) {
    boolean moving = query.sort() == TaskQuery.Sort.UPDATED;
    Pass pass = new Pass(operations, contexts, pageSize, query.limit(),
        moving ? new HashSet<>() : null, each);
    Task newest = pass.read(query);
    if (moving && query.descending() && pass.paged && !pass.ended) {
      // The tasks that changed since the first page, oldest change first.
      pass.read(new TaskQuery(query.machine(), query.state(), query.statuses(), Optional.empty(),
          query.limit(), TaskQuery.Order.ASCENDING, query.sort()).after(newest));
    }
    return pass.given;
  }

  /** One run through a query's pages, sharing what it gave with a later one. */
  private static final class Pass {
    private final Operations operations;
    private final boolean contexts;
    private final int pageSize;
    private final int limit;
    private final Set<String> seen;
    private final Predicate<Task> each;
    long given;
    boolean ended;
    /** Whether a query took more than one page, so tasks could move between two reads. */
    boolean paged;

    Pass(Operations operations, boolean contexts, int pageSize, int limit, Set<String> seen,
        Predicate<Task> each) {
      this.operations = operations;
      this.contexts = contexts;
      this.pageSize = pageSize;
      this.limit = limit;
      this.seen = seen;
      this.each = each;
    }

    /** Reads the query's pages; the first task of the first page, or null when there was none. */
    Task read(TaskQuery query) {
      TaskQuery first = query.withLimit(Math.min(limit, pageSize));
      TaskQuery page = first;
      Task head = null;
      while (!ended) {
        List<Task> tasks = operations.list(page, contexts);
        if (head == null && !tasks.isEmpty()) {
          head = tasks.get(0);
        }
        for (Task t : tasks) {
          if (seen != null && !seen.add(t.id())) {
            continue;
          }
          given++;
          if (!each.test(t) || given == limit) {
            ended = true;
            return head;
          }
        }
        if (tasks.size() < page.limit()) {
          return head;
        }
        page = first.after(tasks.get(tasks.size() - 1));
        paged = true;
      }
      return head;
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

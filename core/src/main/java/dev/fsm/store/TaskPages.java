package dev.fsm.store;

import dev.fsm.task.Task;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A page picked from tasks in any order: the first {@code limit} matching a query in its order,
 * after its cursor task, holding only a page's worth in memory (for an order no index keeps).
 */
public final class TaskPages {

  private TaskPages() {}

  /**
   * The page of {@code query} among {@code tasks}; {@code cursor} is the task {@code afterId}
   * names (null for the first page).
   */
  public static List<Task> page(Iterable<Task> tasks, TaskQuery query, Task cursor) {
    Comparator<Task> order = query.comparator();
    // The page's last task on top, so a better one replaces it.
    PriorityQueue<Task> best = new PriorityQueue<>(order.reversed());
    for (Task t : tasks) {
      if (!query.matchesStored(t) || (cursor != null && order.compare(t, cursor) <= 0)) {
        continue;
      }
      if (best.size() < query.limit()) {
        best.add(t);
      } else if (order.compare(t, best.peek()) < 0) {
        best.poll();
        best.add(t);
      }
    }
    List<Task> page = new ArrayList<>(best);
    page.sort(order);
    return page;
  }
}

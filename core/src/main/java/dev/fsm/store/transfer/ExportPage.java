package dev.fsm.store.transfer;

import dev.fsm.task.TaskHistory;
import java.util.List;

/**
 * One page of an export: tasks in id order, each with its whole history, and the id the next
 * page starts after, or null when this was the last page. A page may hold fewer tasks than asked
 * (a task purged while the page was read is left out, and a page stops early once its histories
 * are long), so only {@code next} says whether more follow.
 */
public record ExportPage(List<TaskHistory> tasks, String next) {

  public ExportPage {
    tasks = List.copyOf(tasks);
  }
}

package dev.fsm.store;

import dev.fsm.task.TaskStatus;
import java.util.Optional;

/**
 * Which tasks to list: optional filters, and a page of at most {@code limit} tasks in id order
 * starting after {@code afterId} (empty for the first page).
 */
public record TaskQuery(
    Optional<String> machine,
    Optional<String> state,
    Optional<TaskStatus> status,
    Optional<String> afterId,
    int limit) {

  public TaskQuery {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1");
    }
  }

  /** Every task, a page of {@code limit} at a time. */
  public static TaskQuery all(int limit) {
    return new TaskQuery(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
        limit);
  }
}

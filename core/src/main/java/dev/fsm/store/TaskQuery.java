package dev.fsm.store;

import dev.fsm.task.TaskStatus;
import java.util.Objects;
import java.util.Optional;

/**
 * Which tasks to list: optional filters, and a page of at most {@code limit} tasks in id order,
 * ascending or descending as {@code order} says, starting strictly after {@code afterId} in that
 * order (empty for the first page): for a descending page, with the ids below {@code afterId}.
 * Generated ids sort by creation time, so a descending page lists the newest tasks first.
 */
public record TaskQuery(
    Optional<String> machine,
    Optional<String> state,
    Optional<TaskStatus> status,
    Optional<String> afterId,
    int limit,
    Order order) {

  /** Which way a page runs through the ids. */
  public enum Order {
    /** Smallest id first: oldest first for generated ids. */
    ASCENDING,
    /** Largest id first: newest first for generated ids. */
    DESCENDING
  }

  public TaskQuery {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1");
    }
    Objects.requireNonNull(order, "order");
  }

  /** A query in ascending id order. */
  public TaskQuery(Optional<String> machine, Optional<String> state, Optional<TaskStatus> status,
      Optional<String> afterId, int limit) {
    this(machine, state, status, afterId, limit, Order.ASCENDING);
  }

  /** Every task, a page of {@code limit} at a time, in ascending id order. */
  public static TaskQuery all(int limit) {
    return new TaskQuery(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
        limit);
  }

  /** True for a page of the largest ids first. */
  public boolean descending() {
    return order == Order.DESCENDING;
  }
}

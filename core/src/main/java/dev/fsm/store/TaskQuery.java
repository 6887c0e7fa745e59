package dev.fsm.store;

import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.time.Instant;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Which tasks to list: optional filters, and a page of at most {@code limit} tasks in the order
 * {@code sort} and {@code order} say, starting strictly after the task {@code afterId} in that
 * order (empty for the first page). {@code statuses} is a union (empty: any status); a store
 * matches their stored statuses, so {@code waiting} and {@code runnable} both select runnable
 * tasks there, and {@code StoreOperations} tells them apart.
 */
public record TaskQuery(
    Optional<String> machine,
    Optional<String> state,
    Set<ShownStatus> statuses,
    Optional<String> afterId,
    int limit,
    Order order,
    Sort sort) {

  /** Which way a page runs. */
  public enum Order {
    /** Smallest first: oldest first. */
    ASCENDING,
    /** Largest first: newest first. */
    DESCENDING
  }

  /** What a page is ordered by; ties are broken by id. */
  public enum Sort {
    /** The id (generated ids sort by creation time, given ones do not). */
    ID,
    /** The creation time. */
    CREATED,
    /** The last change: the later of entering the state and the last attempt. */
    UPDATED;

    /** The order of tasks by this key, then by id, smallest first. */
    public Comparator<Task> comparator() {
      Comparator<Task> byId = Comparator.comparing(Task::id, TaskQuery::compareIds);
      return switch (this) {
        case ID -> byId;
        case CREATED -> Comparator.comparing(Task::created).thenComparing(byId);
        case UPDATED -> Comparator.comparing(TaskQuery::updated).thenComparing(byId);
      };
    }
  }

  public TaskQuery {
    if (limit < 1) {
      throw new IllegalArgumentException("limit must be at least 1");
    }
    Objects.requireNonNull(order, "order");
    Objects.requireNonNull(sort, "sort");
    statuses = statuses.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(statuses));
  }

  /** A query in id order, for one stored status (both its shown statuses) or any. */
  public TaskQuery(Optional<String> machine, Optional<String> state, Optional<TaskStatus> status,
      Optional<String> afterId, int limit, Order order) {
    this(machine, state, status.map(ShownStatus::showing).orElse(Set.of()), afterId, limit, order,
        Sort.ID);
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

  /** The same query for the page after the task {@code id}. */
  public TaskQuery after(String id) {
    return new TaskQuery(machine, state, statuses, Optional.of(id), limit, order, sort);
  }

  /** True for a page of the largest first. */
  public boolean descending() {
    return order == Order.DESCENDING;
  }

  /** The stored statuses the query selects; empty for any. */
  public Set<TaskStatus> storedStatuses() {
    return ShownStatus.stored(statuses);
  }

  /** True when the task passes the machine, state and stored status filters. */
  public boolean matchesStored(Task t) {
    return machine.map(t.machine()::equals).orElse(true)
        && state.map(t.state()::equals).orElse(true)
        && (statuses.isEmpty() || storedStatuses().contains(t.status()));
  }

  /** The order of a page: the sort's, reversed for a descending query. */
  public Comparator<Task> comparator() {
    Comparator<Task> c = sort.comparator();
    return descending() ? c.reversed() : c;
  }

  /** When a task last changed: the later of entering its state and its last attempt. */
  public static Instant updated(Task t) {
    return t.lastAttempt() != null && t.lastAttempt().isAfter(t.stateEntered())
        ? t.lastAttempt() : t.stateEntered();
  }

  /** Ids compared as the stores keep them: UTF-8 bytes unsigned, which is code point order. */
  public static int compareIds(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }
}

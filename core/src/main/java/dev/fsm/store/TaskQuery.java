package dev.fsm.store;

import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.time.Instant;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Which tasks to list: optional filters, and a page of at most {@code limit} tasks in the order
 * {@code sort} and {@code order} say, starting strictly after the task {@code afterId} in that
 * order (empty for the first page). With {@code afterKey}, the page starts after that sort key
 * and id, as the cursor task had them when it was listed, whatever it has now or whether it is
 * still there; without it, after the cursor task as it is now (and empty if it is gone). {@code statuses} is a union (empty: any status); a store
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
    Sort sort,
    Optional<Instant> afterKey) {

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
    /** The last change ({@link Task#updated}): a step, an error, a command or an attempt. */
    UPDATED;

    /** The task's value of this key; null for {@link #ID}, which has no key but the id. */
    public Instant key(Task t) {
      return switch (this) {
        case ID -> null;
        case CREATED -> t.created();
        case UPDATED -> t.updated();
      };
    }

    /** The order of tasks by this key, then by id, smallest first. */
    public Comparator<Task> comparator() {
      Comparator<Task> byId = Comparator.comparing(Task::id, TaskQuery::compareIds);
      return switch (this) {
        case ID -> byId;
        case CREATED -> Comparator.comparing(Task::created).thenComparing(byId);
        case UPDATED -> Comparator.comparing(Task::updated).thenComparing(byId);
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
    Objects.requireNonNull(afterKey, "afterKey");
    if (afterKey.isPresent() && (afterId.isEmpty() || sort == Sort.ID)) {
      throw new IllegalArgumentException("afterKey needs afterId and a sort by a key");
    }
  }

  /** A page after the task {@code afterId} as it is now. */
  public TaskQuery(Optional<String> machine, Optional<String> state, Set<ShownStatus> statuses,
      Optional<String> afterId, int limit, Order order, Sort sort) {
    this(machine, state, statuses, afterId, limit, order, sort, Optional.empty());
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

  /** The same query with another limit. */
  public TaskQuery withLimit(int limit) {
    return new TaskQuery(machine, state, statuses, afterId, limit, order, sort, afterKey);
  }

  /** The same query for the page after the task {@code id}, as that task is now. */
  public TaskQuery after(String id) {
    return new TaskQuery(machine, state, statuses, Optional.of(id), limit, order, sort);
  }

  /**
   * The same query for the page after {@code task} as it is here: a task that changes or goes
   * away after this was read moves no later page.
   */
  public TaskQuery after(Task task) {
    return new TaskQuery(machine, state, statuses, Optional.of(task.id()), limit, order, sort,
        Optional.ofNullable(sort.key(task)));
  }

  /**
   * The cursor of a page after a key ({@code afterKey}), as a task that {@link #comparator()}
   * and the creation order place where the cursor task was: its id, and the key as both its
   * creation and its last change.
   */
  public Optional<Task> keyCursor() {
    return afterKey.map(k -> new Task(afterId.orElseThrow(), "", "", "", TaskStatus.RUNNABLE,
        "{}", 0, List.of(), k, k, null, null, null));
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

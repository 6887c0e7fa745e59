package dev.fsm.store;

import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Which terminal tasks a purge deletes (SPEC section 5): those of {@code machine} (any when
 * empty) with one of {@code statuses} (every terminal status when empty) that became terminal
 * more than {@code olderThan} ago. A store works through them {@code batch} at a time in id
 * order, from after {@code afterId}; a {@code dryRun} only counts them.
 */
public record PurgeQuery(
    Optional<String> machine,
    Set<TaskStatus> statuses,
    Duration olderThan,
    boolean dryRun,
    Optional<String> afterId,
    int batch) {

  /** Tasks a store examines per batch by default: a few milliseconds under its lock. */
  public static final int BATCH = 100;

  public PurgeQuery {
    if (olderThan.isNegative()) {
      throw new IllegalArgumentException("a purge's age must not be negative");
    }
    if (batch < 1) {
      throw new IllegalArgumentException("a purge's batch must be at least 1");
    }
    for (TaskStatus s : statuses) {
      if (!s.isTerminal()) {
        throw new IllegalArgumentException("a purge deletes only terminal tasks, not "
            + s.word() + " ones");
      }
    }
    statuses = statuses.isEmpty() ? terminal() : Set.copyOf(EnumSet.copyOf(statuses));
  }

  /** Every terminal task of any machine older than {@code olderThan}, a default batch at a time. */
  public static PurgeQuery olderThan(Duration olderThan) {
    return new PurgeQuery(Optional.empty(), Set.of(), olderThan, false, Optional.empty(), BATCH);
  }

  /** The statuses a purge may delete: the terminal ones. */
  public static Set<TaskStatus> terminal() {
    Set<TaskStatus> all = EnumSet.noneOf(TaskStatus.class);
    for (TaskStatus s : TaskStatus.values()) {
      if (s.isTerminal()) {
        all.add(s);
      }
    }
    return Set.copyOf(all);
  }

  /** The same query continuing after the task {@code id}. */
  public PurgeQuery after(String id) {
    return new PurgeQuery(machine, statuses, olderThan, dryRun, Optional.of(id), batch);
  }

  /** The same query as a count that changes nothing, or as a purge. */
  public PurgeQuery dryRun(boolean onlyCount) {
    return new PurgeQuery(machine, statuses, olderThan, onlyCount, afterId, batch);
  }

  /** The same query {@code size} tasks at a time. */
  public PurgeQuery batch(int size) {
    return new PurgeQuery(machine, statuses, olderThan, dryRun, afterId, size);
  }

  /** The list query that finds the candidates of one batch: by id, after the cursor. */
  public TaskQuery candidates() {
    Set<ShownStatus> shown = EnumSet.noneOf(ShownStatus.class);
    for (TaskStatus s : statuses) {
      shown.addAll(ShownStatus.showing(s));
    }
    return new TaskQuery(machine, Optional.empty(), shown, afterId, batch,
        TaskQuery.Order.ASCENDING, TaskQuery.Sort.ID);
  }

  /**
   * True when the task goes: its machine and status selected, and it became terminal ({@code
   * lastEntry}, its newest history entry, null when it has none) before {@code now - olderThan}.
   */
  public boolean matches(Task t, Transition lastEntry, Instant now) {
    return machine.map(t.machine()::equals).orElse(true) && statuses.contains(t.status())
        && terminalAt(t, lastEntry).isBefore(now.minus(olderThan));
  }

  /**
   * When a terminal task became terminal: the time of its last change, which is its newest
   * history entry (every change adds one: a step into a final state, a kill); a task without
   * history falls back to its last update as {@code ls --sort updated} orders it.
   */
  public static Instant terminalAt(Task t, Transition lastEntry) {
    Instant updated = t.updated();
    return lastEntry != null && lastEntry.time().isAfter(updated) ? lastEntry.time() : updated;
  }
}

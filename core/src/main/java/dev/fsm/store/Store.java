package dev.fsm.store;

import dev.fsm.task.Change;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.Transition;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Where tasks live: a narrow, claim-centred contract that the embedded store and PostgreSQL both
 * implement, so the engine never knows which it has. The rules (which command moves which status,
 * what an outcome does) live in pure functions elsewhere; a store makes their results atomic and
 * durable. Every method that changes something returns only once the change is on disk.
 */
public interface Store extends AutoCloseable {

  /**
   * Creates tasks, all or none.
   *
   * @throws TaskExistsException when an id is taken; nothing is created then
   */
  void create(List<Task> tasks);

  /**
   * Writes tasks exactly as another store held them, each with its whole history, all or none,
   * durably: how {@code fsm store import} brings tasks over. Each snapshot is stored as given
   * except its lease, which is dropped (it was a runner's of the store the task came from), so
   * {@link #get} returns {@code task.withLease(null)} and {@link #history} returns the history
   * as given; a restored task is claimable, counted, listed and purged like any other, by its
   * status and due time. The machine versions the tasks are pinned to are not checked here.
   *
   * @throws TaskExistsException naming the first id (in the list's order) that a task of the
   *     store has, or that the list holds twice; nothing is written then
   */
  void restore(List<TaskHistory> tasks);

  /**
   * Claims up to {@code max} tasks that are due at {@code now} and not leased, oldest due first,
   * and leases them to {@code owner} until {@code now + lease}. The one change that need not be
   * on disk when the method returns: a lease lost in a crash only makes the task claimable again,
   * which the crash allows anyway; the owner's next recorded change makes it durable.
   */
  default List<Task> claim(String owner, int max, Instant now, Duration lease) {
    return claim(owner, max, now, lease, ClaimLimits.NONE);
  }

  /**
   * As {@link #claim(String, int, Instant, Duration)}, passing over due tasks that {@code limits}
   * leave no room for (a {@code concurrency:} cap, an open circuit breaker): they stay due, in
   * their place, and are claimed once a later call has room for them.
   */
  List<Task> claim(String owner, int max, Instant now, Duration lease, ClaimLimits limits);

  /**
   * Extends {@code owner}'s leases on these tasks until {@code until}.
   *
   * @return the ids it no longer holds (their actions should stop)
   */
  Set<String> renew(String owner, Collection<String> ids, Instant until);

  /**
   * Records the outcome of an attempt: the task's next snapshot and its history entry together,
   * only while {@code owner} still holds the task's lease.
   *
   * @throws LeaseLostException when it does not; nothing is recorded then
   */
  void record(String owner, Change change);

  /**
   * Records the outcomes of several attempts, in order, each as {@link #record} would, and makes
   * them durable together: how a runner completes a batch of claimed tasks with one write.
   *
   * @return the ids of changes not recorded because {@code owner} no longer held the task's lease
   *     or the task no longer exists; the others are recorded
   */
  Set<String> recordAll(String owner, List<Change> changes);

  /**
   * Atomically reads a task, computes a change from it, and records that change. The function may
   * throw to refuse; then nothing changes and the exception reaches the caller.
   *
   * @throws TaskNotFoundException when no task has this id
   */
  Task update(String id, Function<Task, Change> change);

  /** The task with this id, if any. */
  Optional<Task> get(String id);

  /**
   * A task's history, oldest first.
   *
   * @throws TaskNotFoundException when no task has this id
   */
  List<Transition> history(String id);

  /**
   * The histories of {@code ids}, oldest entry first, by id; an id of no task (purged since it
   * was listed, say) is left out or has no entries. A store across a network reads them in one
   * go.
   */
  default Map<String, List<Transition>> histories(List<String> ids) {
    Map<String, List<Transition>> out = new LinkedHashMap<>();
    for (String id : ids) {
      try {
        out.put(id, history(id));
      } catch (TaskNotFoundException e) {
        // Purged since it was listed: nothing to read.
      }
    }
    return out;
  }

  /**
   * A page of tasks matching the query, in its order (id, creation or last change; ties by id),
   * after its {@code afterId} task; an {@code afterId} that names no task gives an empty page
   * when the order is not by id. Statuses match by their stored status ({@link TaskQuery}).
   * An unfiltered page by id or by creation reads a page's worth, however many tasks there are.
   */
  List<Task> list(TaskQuery query);

  /**
   * Up to {@code filter.limit()} tasks the filter's machine, state and statuses select, the one
   * created or changed most recently first, among the changes the store keeps in order: an
   * embedded store the newest it applied since it was opened, PostgreSQL its newest history
   * entries and creations (see each store for how many). Without their contexts (each reads as
   * {@code {}}), so even a long list is small; cheap however many tasks there are. The filter's
   * order, sort and cursor are not used. For a view of what is happening now ({@code fsm
   * watch}).
   */
  List<Task> recentlyChanged(TaskQuery filter);

/**
   * The ids of the tasks {@link #list} would return for {@code query}, in its order: for a
   * caller that needs no more of each task, so a store may skip reading them.
   */
  default List<String> ids(TaskQuery query) {
    return list(query).stream().map(Task::id).toList();
  }

    /** Up to {@code limit} task ids starting with {@code prefix}, in order (for completion). */
  List<String> idsStartingWith(String prefix, int limit);

  /**
   * The earliest time a claim could find work: the first due time among tasks nobody leases, or
   * the first end of a lease; empty when no task is scheduled (all terminal, paused or waiting for
   * a signal). A runner sleeps until then instead of polling.
   */
  Optional<Instant> nextDue();

  /**
   * As {@link #nextDue()}, leaving out due tasks that {@code limits} leave no room for: what a
   * runner whose caps are full waits for, instead of the held-back tasks it cannot start.
   */
  Optional<Instant> nextDue(ClaimLimits limits);

  /**
   * Gives {@code each} every attempt error ({@link dev.fsm.task.AttemptErrors}) kept in the
   * histories that {@code query} matches, in no set order: the errors of tasks that moved on,
   * were redriven or had their recent errors trimmed included, those of purged tasks not. A store
   * reads the histories' newest part only, and a store that others write to at the same time
   * does not hold them up for the whole read.
   */
  void errors(ErrorQuery query, Consumer<ErrorEntry> each);

  /** Task counts per machine, state and status; combinations with no tasks are left out. */
  List<TaskCount> counts();

  /**
   * Registers a machine definition's text as the newest version: the newest version's text
   * again returns that version; any other text, even an older version's, becomes a new version
   * numbered after the others, with an id no other version of the machine has.
   */
  MachineVersion register(String machine, String definition, Instant now);

  /** A machine's versions, oldest first. */
  List<MachineVersion> versions(String machine);

  /** Every machine's versions, by machine name and then oldest first. */
  List<MachineVersion> allVersions();

  /**
   * One batch of a purge: examines up to {@code query.batch()} terminal tasks of the query's
   * machine and statuses in id order after its cursor and deletes, with their histories, those
   * that became terminal before {@code now - query.olderThan()}, all or none, durably; a dry run
   * only counts them. Tasks of other statuses are never touched. The caller continues after
   * {@link PurgeBatch#resumeAfter} until it is empty, so the store's lock is held one batch at a
   * time; a deleted task's id may be used again.
   */
  PurgeBatch purge(PurgeQuery query, Instant now);

  /**
   * Writes a runner's record (see {@link RunnerRecord}), replacing the one with its id: cheap,
   * as every runner calls it every few seconds, and never waiting on the claim or record path.
   * A store may forget records not seen for {@link RunnerRecord#KEPT}.
   */
  void runnerSeen(RunnerRecord runner);

  /** The runners seen at or after {@code seenSince}, oldest start first (then by id). */
  List<RunnerRecord> runners(Instant seenSince);

  /**
   * Who may have the store open at once: {@link Ownership#SHARED} unless one process owns it
   * at a time (the embedded store), which tells, among other things, that a runner of another
   * process that did not stop cleanly has ended.
   */
  default Ownership ownership() {
    return Ownership.SHARED;
  }

  /**
   * The clock runners and operators of this store take {@code now} from: for a database server,
   * its time, so that leases compared by processes on many hosts agree.
   */
  default Clock clock() {
    return Clock.systemUTC();
  }

  /**
   * Tells {@code events} what other processes change in the store while it is open, from a
   * thread of the store's. A store that one process owns has nobody else to hear: the default
   * tells nothing.
   */
  default void listen(StoreEvents events) {}

  /**
   * Tells the other runners of a shared store that this runner's breaker of a machine opened
   * or closed (they hear it as {@link StoreEvents#breakerChanged}). A store one runner owns at
   * a time has no one to tell.
   */
  default void announce(BreakerNews news) {}

  /**
   * The latest breaker news any runner announced for {@code machine} ({@link #announce}), for a
   * process with no runner of its own to show what the runners hold; empty where none is kept
   * (a store one process owns, whose runner answers for its breakers itself).
   */
  default Optional<AnnouncedBreaker> breakerNews(String machine) {
    return Optional.empty();
  }

  /** Closes the store, after everything acknowledged is on disk. */
  @Override
  void close();
}

package dev.fsm.operations;

import dev.fsm.engine.ErrorReport;
import dev.fsm.engine.StateStats;
import dev.fsm.store.ErrorQuery;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.PurgeQuery;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.VersionCount;
import dev.fsm.store.transfer.ExportPage;
import dev.fsm.task.Command;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.Transition;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Everything an operator does to tasks: start, send, signal, and the queries. Verbs call this and
 * never know whether the store is opened in their own process ({@code StoreOperations}) or owned by a
 * runner they talk to over the control socket ({@code SocketControl}).
 */
public interface Operations extends AutoCloseable {

  /** {@link #via()} of operations on a store opened in this process. */
  String LOCAL = "local";

  /**
   * Registers the machine's definition (a new version when its text changed) and creates the
   * tasks in its initial state, all or none, durably.
   *
   * @throws dev.fsm.store.TaskExistsException when an id is taken
   */
  List<Task> start(MachineSource machine, List<NewTask> tasks);

  /**
   * Sends an operator's command to one task; a running action hears it at once.
   *
   * @throws dev.fsm.FsmException when the task's status refuses the command (naming the allowed
   *     ones), or the task does not exist
   */
  default Task send(String id, Command command, Instant until, String reason) {
    return send(id, command, SendOptions.of(until, reason));
  }

  /**
   * Sends an operator's command to one task, with {@code --to} for {@code redrive}.
   *
   * @param to the machine state a redriven task goes back to, or null for where it stopped
   * @throws dev.fsm.FsmException as {@link #send(String, Command, Instant, String)}, and when
   *     {@code to} is not a state of the task's machine version
   */
  default Task send(String id, Command command, Instant until, String reason, String to) {
    return send(id, command, new SendOptions(until, reason, to, false, null));
  }

  /**
   * Sends an operator's command to one task, with all its options.
   *
   * @throws dev.fsm.FsmException as {@link #send(String, Command, Instant, String, String)}, and
   *     when {@code --after-step} is given to a command that does not take it
   */
  Task send(String id, Command command, SendOptions options);

  /**
   * Sends a command to every task the selector matches; refused tasks are reported, not fatal.
   * With {@code dryRun} nothing changes and the report says what would.
   */
  default BulkSendReport sendAll(TaskSelector selector, Command command, Instant until,
      String reason, boolean dryRun) {
    return sendAll(selector, command, SendOptions.of(until, reason), dryRun);
  }

  /** {@link #sendAll(TaskSelector, Command, Instant, String, boolean)} with {@code --to}. */
  default BulkSendReport sendAll(TaskSelector selector, Command command, Instant until,
      String reason, String to, boolean dryRun) {
    return sendAll(selector, command, new SendOptions(until, reason, to, false, null), dryRun);
  }

  /** {@link #sendAll(TaskSelector, Command, Instant, String, boolean)} with all the options. */
  BulkSendReport sendAll(TaskSelector selector, Command command, SendOptions options,
      boolean dryRun);

  /**
   * Fires an event on a task waiting in an externally progressed state.
   *
   * @param context a JSON object merged shallowly into the task's context, or null
   * @throws dev.fsm.FsmException when the task is not waiting for a signal, or its state has no
   *     edge for the event
   */
  Task signal(String id, String event, String context);

  /** The task with this id, if any. */
  Optional<Task> get(String id);

  /**
   * A task's history, oldest first.
   *
   * @throws dev.fsm.store.TaskNotFoundException when no task has this id
   */
  List<Transition> history(String id);

  /** A page of tasks in the query's order, with their contexts. */
  default List<Task> list(TaskQuery query) {
    return list(query, true);
  }

  /**
   * A page of tasks in the query's order; without {@code contexts}, each task's context reads
   * as {@code {}}, for views that show none, however large the contexts are.
   *
   * @throws dev.fsm.FsmException when the page's contexts are more than one answer holds
   *     (16 MiB)
   */
  List<Task> list(TaskQuery query, boolean contexts);

  /**
   * Up to {@code filter.limit()} tasks its machine, state and statuses select, the most recently
   * created or changed first, among the changes the store keeps in order ({@link
   * dev.fsm.store.Store#recentlyChanged}); without their contexts. For {@code fsm watch}.
   */
  List<Task> recentlyChanged(TaskQuery filter);

  /** Task ids starting with a prefix, for completion and short ids. */
  List<String> idsStartingWith(String prefix, int limit);

  /** Task counts per machine, state and status. */
  List<TaskCount> counts();

  /**
   * Per-state statistics of one machine, or of every machine when {@code machine} is null: counts
   * by status, durations of successful attempts, error rate and the timeout in force.
   */
  List<StateStats> stats(String machine);

  /**
   * The attempt errors ({@link dev.fsm.task.AttemptErrors}) the query matches, from the
   * histories, grouped by machine, state and masked message, at most {@code limit} groups, most
   * frequent first.
   */
  ErrorReport errors(ErrorQuery query, int limit);

  /** Every version of a machine, oldest first; empty for an unknown machine. */
  List<MachineVersion> versions(String machine);

  /**
   * Registers the machine's file as the newest version (unless it is already) and applies that
   * file's {@code upgrade:} to every unfinished task of an older version, durably. With
   * {@code dryRun} nothing changes, not even the registration, and the report says what would.
   */
  UpgradeReport upgrade(MachineSource machine, boolean dryRun);

  /** Task counts of one machine per version, state and status (a scan of its tasks). */
  List<VersionCount> versionCounts(String machine);

  /** The names of every machine that has a registered version. */
  List<String> machineNames();

  /**
   * Every machine's circuit breaker (SPEC section 4), in {@link #machineNames} order: as the
   * runner that owns the store sees it, else {@code closed} (no runner counts attempts), or
   * {@code -} for a machine whose newest version has no breaker.
   */
  List<MachineBreaker> breakers();

  /**
   * The runners seen in the last hour ({@link dev.fsm.store.RunnerRecord#KEPT}), with the
   * store's time, by which each is running, gone or stopped.
   */
  RunnerReport runners();

  /**
   * Deletes terminal tasks that became terminal longer ago than the query's age, with their
   * histories, a batch at a time so that a runner sharing the store keeps working; with {@code
   * query.dryRun()} only counts them. The query's cursor and batch size are the store's business.
   */
  PurgeReport purge(PurgeQuery query);

  /** Every machine version of every machine, for an export. */
  List<MachineVersion> allVersions();

  /**
   * A page of tasks in id order with their whole histories, for an export
   * ({@link dev.fsm.store.transfer.ExportSource#page}): a store a runner serves is exported
   * through it.
   */
  ExportPage exportPage(String after, int limit);

  /** Those of {@code ids} that name a task, in their order, for an import. */
  List<String> takenIds(List<String> ids);

  /**
   * Registers a machine version from an export, as {@link dev.fsm.store.Store#register} does:
   * the caller checks that it got the number and id the export gave.
   */
  MachineVersion importVersion(String machine, String definition, Instant registered);

  /**
   * Writes tasks from an export with their histories, all or none, durably; a runner serving
   * the store then runs them by their due times.
   *
   * @throws dev.fsm.store.TaskExistsException when an id is taken
   */
  void importTasks(List<TaskHistory> tasks);

  /** Where commands go: "local" (this process opened the store) or the runner's pid. */
  String via();

  @Override
  void close();
}

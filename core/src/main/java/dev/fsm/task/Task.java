package dev.fsm.task;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * A snapshot of one task: an instance of a machine with its own context, where it is, and what
 * it may do next. Immutable; a change is a new snapshot.
 *
 * @param id unique, sortable by creation time when generated
 * @param machine the machine's name
 * @param version the machine version the task is pinned to
 * @param state the current machine state
 * @param status where the task stands (runnable, sleeping, ...)
 * @param context the task's JSON object, as text
 * @param attempt attempts made in the current state, 0 before the first
 * @param errors recent errors, oldest first
 * @param created when the task was created
 * @param stateEntered when it entered its current state
 * @param lastAttempt when its last attempt started, if any
 * @param due when a runner should next claim it: now or earlier for a runnable task or one in
 *     fault, the wake-up time for a sleeping one; null when nothing is scheduled (paused,
 *     terminal)
 * @param lease the runner holding it, if any
 * @param pausing a pause that waits for the running step to end ({@code pause --after-step}),
 *     or null
 * @param changed when it last changed: the time of its newest history entry (a step, an error,
 *     an operator's command), or its creation; see {@link #updated}
 */
public record Task(
    String id,
    String machine,
    String version,
    String state,
    TaskStatus status,
    String context,
    int attempt,
    List<TaskError> errors,
    Instant created,
    Instant stateEntered,
    Instant lastAttempt,
    Instant due,
    Lease lease,
    Pausing pausing,
    Instant changed) {

  public Task {
    errors = List.copyOf(errors);
    if (changed == null) {
      changed = stateEntered != null ? stateEntered : created;
    }
  }

  /**
   * A task whose last change is not known apart from its own times (a record an older fsm
   * wrote): taken as when it entered its state.
   */
  public Task(String id, String machine, String version, String state, TaskStatus status,
      String context, int attempt, List<TaskError> errors, Instant created, Instant stateEntered,
      Instant lastAttempt, Instant due, Lease lease, Pausing pausing) {
    this(id, machine, version, state, status, context, attempt, errors, created, stateEntered,
        lastAttempt, due, lease, pausing, null);
  }

  /** A task with no pause pending. */
  public Task(String id, String machine, String version, String state, TaskStatus status,
      String context, int attempt, List<TaskError> errors, Instant created, Instant stateEntered,
      Instant lastAttempt, Instant due, Lease lease) {
    this(id, machine, version, state, status, context, attempt, errors, created, stateEntered,
        lastAttempt, due, lease, null, null);
  }

  /**
   * When anything last happened to it, as {@code ls --sort updated} orders tasks: its last
   * change, or the start of its last attempt if later (a claim writes no history entry).
   */
  public Instant updated() {
    Instant t = changed;
    if (stateEntered != null && stateEntered.isAfter(t)) {
      t = stateEntered;
    }
    return lastAttempt != null && lastAttempt.isAfter(t) ? lastAttempt : t;
  }

  /** The runner's lease, if one is held at {@code now}. */
  public Optional<Lease> leaseAt(Instant now) {
    return lease != null && lease.heldAt(now) ? Optional.of(lease) : Optional.empty();
  }

  /**
   * True when {@code owner} took the task's lease, whether or not it has run out: an expired
   * lease nobody else has claimed is still its owner's to renew.
   */
  public boolean leaseTakenBy(String owner) {
    return lease != null && lease.owner().equals(owner);
  }

  /** True when {@code owner} holds the task's lease at {@code now}. */
  public boolean leasedTo(String owner, Instant now) {
    return leaseAt(now).map(l -> l.owner().equals(owner)).orElse(false);
  }

  /**
   * True when a runner may claim it at {@code now}: due and not leased. Runnable tasks run their
   * action, sleeping ones wake, and tasks in fault are claimed so their error policy is applied.
   */
  public boolean claimableAt(Instant now) {
    return due != null && !due.isAfter(now) && !status.isTerminal() && status != TaskStatus.PAUSED
        && leaseAt(now).isEmpty();
  }

  /** This task with another lease, or none ({@code null}); everything else is the same. */
  public Task withLease(Lease newLease) {
    return new Task(id, machine, version, state, status, context, attempt, errors, created,
        stateEntered, lastAttempt, due, newLease, pausing, changed);
  }

  /** This task with another context; everything else is the same. */
  public Task withContext(String newContext) {
    return new Task(id, machine, version, state, status, newContext, attempt, errors, created,
        stateEntered, lastAttempt, due, lease, pausing, changed);
  }

  /** This task with another pending pause, or none ({@code null}). */
  public Task withPausing(Pausing mark) {
    return new Task(id, machine, version, state, status, context, attempt, errors, created,
        stateEntered, lastAttempt, due, lease, mark, changed);
  }

  /** This task as changed at {@code time}. */
  public Task withChanged(Instant time) {
    return new Task(id, machine, version, state, status, context, attempt, errors, created,
        stateEntered, lastAttempt, due, lease, pausing, time);
  }
}

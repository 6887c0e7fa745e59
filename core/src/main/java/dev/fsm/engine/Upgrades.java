package dev.fsm.engine;

import dev.fsm.model.Behavior;
import dev.fsm.model.Machine;
import dev.fsm.model.Outcome;
import dev.fsm.model.State;
import dev.fsm.model.UpgradeStrategy;
import dev.fsm.store.MachineVersion;
import dev.fsm.task.Change;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rules of {@code fsm upgrade}, as pure functions: what a strategy decides for a task of an
 * older version, and the change each decision records in the task's history.
 */
public final class Upgrades {

  /** The history event of a move, a pending move or a fault made by an upgrade. */
  public static final String EVENT = "upgrade";

  private static final Pattern PENDING =
      Pattern.compile("^upgrade v(\\d+)→v(\\d+) waits for the running attempt");

  private Upgrades() {}

  /**
   * The decision for an unfinished task of an older version.
   *
   * @param from the task's own version (null when not known), which says where a running
   *     attempt's outcome may go
   * @param running true when a runner holds the task's attempt now
   */
  public static UpgradeDecision decide(Task task, Machine from, Machine target,
      UpgradeStrategy strategy, boolean running) {
    return switch (strategy) {
      case CONTINUE -> UpgradeDecision.of(UpgradeDecision.Kind.CONTINUE);
      case ABORT -> UpgradeDecision.of(UpgradeDecision.Kind.ABORT);
      case UPGRADE -> running
          ? new UpgradeDecision(UpgradeDecision.Kind.MOVE_AFTER_ATTEMPT,
              missingAfterAttempt(task, from, target))
          : target.state(task.state()).isPresent() ? UpgradeDecision.of(UpgradeDecision.Kind.MOVE)
              : new UpgradeDecision(UpgradeDecision.Kind.FAULT, task.state());
    };
  }

  /**
   * The first, by name, of the states a running attempt's outcome may leave the task in under
   * {@code from} (its own, or one its edges lead to) that {@code target} lacks; null for none.
   */
  private static String missingAfterAttempt(Task task, Machine from, Machine target) {
    TreeSet<String> after = new TreeSet<>();
    after.add(task.state());
    if (from != null) {
      from.state(task.state()).ifPresent(s -> after.addAll(s.on().values()));
    }
    return after.stream().filter(s -> target.state(s).isEmpty()).findFirst().orElse(null);
  }

  /**
   * The task on the new version: the same state, context and errors. A state whose kind changed
   * is arrived at again (a signal-waiting state clears the due time, a run state is due now, a
   * final one ends the task). A state the new version lacks parks the task in fault, pinned to
   * the new version, so {@code error} and {@code redrive --to} pick one of its states.
   */
  public static Change move(Task task, MachineVersion from, MachineVersion to, Machine target,
      Instant now, String by) {
    String fromTo = "v" + from.number() + "→v" + to.number();
    Optional<State> state = target.state(task.state());
    if (state.isEmpty()) {
      String message = "state `" + task.state() + "` does not exist in v" + to.number()
          + " of machine `" + task.machine() + "` (the task was in it under v" + from.number()
          + "); send `error`, then `redrive --to STATE` with a state of v" + to.number();
      List<TaskError> errors = new ArrayList<>(task.errors());
      errors.add(new TaskError(now, message));
      Task next = copy(task, to.version(), TaskStatus.FAULT, errors, null);
      return new Change(next, entry(task, now, by, "upgrade " + fromTo + ": " + message));
    }
    TaskStatus status = task.status();
    Instant due = task.due();
    Behavior b = state.get().behavior();
    if (status == TaskStatus.RUNNABLE) {
      if (b instanceof Behavior.External) {
        due = null;
      } else if (b instanceof Behavior.Final end) {
        status = end.outcome() == Outcome.COMPLETED ? TaskStatus.COMPLETED : TaskStatus.FAILED;
        due = null;
      } else if (due == null) {
        due = now;
      }
    }
    Task next = copy(task, to.version(), status, task.errors(), due);
    return new Change(next, entry(task, now, by, "upgraded " + fromTo));
  }

  /** The history entry that marks a running task to move once its attempt is recorded. */
  public static Change pending(Task task, MachineVersion from, MachineVersion to, Instant now,
      String by) {
    return new Change(task, entry(task, now, by, "upgrade v" + from.number() + "→v"
        + to.number() + " waits for the running attempt; it moves when the outcome is recorded"));
  }

  /** The change that kills a task for {@code upgrade: abort}; a running action is stopped. */
  public static Change abort(Task task, MachineVersion from, MachineVersion to, Instant now,
      String by) {
    Task next = new Task(task.id(), task.machine(), task.version(), task.state(),
        TaskStatus.KILLED, task.context(), task.attempt(), task.errors(), task.created(),
        task.stateEntered(), task.lastAttempt(), null, null);
    return new Change(next, new Transition(now, task.state(), "kill", task.state(), 0,
        task.attempt(), by, "aborted by upgrade to v" + to.number() + " (v" + from.number()
            + "→v" + to.number() + ")"));
  }

  /**
   * The version number a pending upgrade in this history moves the task to: the last upgrade
   * entry, when it is a pending one made while the task had version {@code fromNumber}.
   */
  public static Optional<Integer> pendingTarget(List<Transition> history, int fromNumber) {
    for (int i = history.size() - 1; i >= 0; i--) {
      Transition t = history.get(i);
      if (!t.event().equals(EVENT)) {
        continue;
      }
      Matcher m = PENDING.matcher(t.reason());
      if (m.find() && Integer.parseInt(m.group(1)) == fromNumber) {
        return Optional.of(Integer.parseInt(m.group(2)));
      }
      return Optional.empty();
    }
    return Optional.empty();
  }

  private static Transition entry(Task task, Instant now, String by, String reason) {
    return new Transition(now, task.state(), EVENT, task.state(), 0, task.attempt(), by, reason);
  }

  private static Task copy(Task t, String version, TaskStatus status, List<TaskError> errors,
      Instant due) {
    return new Task(t.id(), t.machine(), version, t.state(), status, t.context(), t.attempt(),
        errors, t.created(), t.stateEntered(), t.lastAttempt(), due, t.lease(), null,
        t.changed());
  }
}

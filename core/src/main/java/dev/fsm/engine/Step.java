package dev.fsm.engine;

import dev.fsm.FsmException;
import dev.fsm.action.ActionOutcome;
import dev.fsm.action.Attempt;
import dev.fsm.diagnostic.Printable;
import dev.fsm.model.Behavior;
import dev.fsm.model.Durations;
import dev.fsm.model.Machine;
import dev.fsm.model.Outcome;
import dev.fsm.model.State;
import dev.fsm.model.Timeout;
import dev.fsm.task.AfterStep;
import dev.fsm.task.AttemptErrors;
import dev.fsm.task.Change;
import dev.fsm.task.Command;
import dev.fsm.task.Lease;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How a task moves through its machine: pure functions from a task, what happened to it and the
 * time to the change to record. No threads, disks or clocks: the runner and the operator verbs
 * call these and make the result durable.
 */
public final class Step {

  /** The history event of an at-most-once attempt's start, so a crash mid-attempt is noticed. */
  public static final String START = "start";

  /** How history entries written by runners name them ({@code runner:PID@HOST/wN}). */
  public static final String RUNNER = AttemptErrors.RUNNER;

  private Step() {}

  /** A new task in the machine's initial state, first runnable at {@code at} (or now). */
  public static Task start(Machine machine, String version, String id, String context,
      Instant at, Instant now) {
    Instant from = at == null || at.isBefore(now) ? now : at;
    Task blank = new Task(id, machine.name(), version, machine.initial(), TaskStatus.RUNNABLE,
        context == null ? Contexts.EMPTY : context, 0, List.of(), now, now, null, from, null);
    State initial = machine.state(machine.initial()).orElseThrow();
    Task started = arrive(blank, initial, from);
    if (from.isAfter(now) && initial.behavior() instanceof Behavior.Run) {
      // Its action may not run yet: sleeping until then, as `send ID sleep --until` would make
      // it, so `send ID run` starts it now.
      return copy(started, started.state(), TaskStatus.SLEEPING, started.context(),
          started.attempt(), started.errors(), started.stateEntered(), started.lastAttempt(),
          started.due(), null);
    }
    return started;
  }

  /**
   * What a runner does with a task it claimed. An action state runs its action; anything else
   * (a wait that is over, a task in fault, an interrupted at-most-once attempt) is settled at
   * once with a change to record.
   *
   * @param attemptOpen true when the history shows an at-most-once attempt that started in this
   *     state and never ended ({@link #attemptOpen})
   * @param random a number in [0, 1) for backoff jitter
   */
  public static Plan claimed(Task task, Machine machine, boolean attemptOpen, Instant now,
      double random, String by) {
    if (task.pausing() != null && Command.PAUSE.next(task.status()).isPresent()) {
      // Its step ended without a record (the runner died or released it): pause, run nothing.
      return new Plan.Record(AfterStep.pauseNow(task, now));
    }
    State state = machine.state(task.state()).orElse(null);
    if (state == null) {
      return new Plan.Record(fault(task, "state `" + task.state() + "` does not exist in version "
          + task.version() + " of machine `" + machine.name() + "`", now, by));
    }
    if (task.status() == TaskStatus.FAULT) {
      return new Plan.Record(applyErrorPolicy(task, machine, state, null, now, 0, random, by));
    }
    Behavior behavior = state.behavior();
    if (behavior instanceof Behavior.Wait) {
      return new Plan.Record(fire(task, machine, state, State.OK, null, now, by, ""));
    }
    if (behavior instanceof Behavior.Run run) {
      boolean atMostOnce = state.timeout() instanceof Timeout.Never;
      if (atMostOnce && attemptOpen) {
        return new Plan.Record(interrupted(task, state, now, by));
      }
      Task running = copy(task, task.state(), TaskStatus.RUNNABLE, task.context(),
          task.attempt() + 1, task.errors(), task.stateEntered(), now, task.due(), task.lease());
      Optional<Change> startRecord = atMostOnce
          ? Optional.of(new Change(running, new Transition(now, state.name(), START, state.name(),
              0, running.attempt(), by, "at-most-once: not rerun if interrupted")))
          : Optional.empty();
      return new Plan.RunAction(running, run.action(), startRecord);
    }
    // Externally progressed (woken from a sleep or a pause) or final: back to waiting.
    Task settled = arrive(task, state, now);
    return new Plan.Record(new Change(settled, new Transition(now, task.state(), "wait",
        task.state(), 0, task.attempt(), by, "waiting for a signal")));
  }

  /**
   * The change an attempt's outcome makes, or empty when nothing is to be recorded (the action
   * was stopped by a command, a lost lease or a shutdown).
   *
   * @param running the task as {@link Plan.RunAction} gave it to the action
   * @param timeout the limit in force when the action timed out, as text for the message
   */
  public static Optional<Change> finished(Task running, Machine machine, ActionOutcome outcome,
      Instant started, Instant now, String timeout, double random, String by) {
    State state = machine.state(running.state()).orElseThrow();
    long millis = Math.max(0, Duration.between(started, now).toMillis());
    if (outcome instanceof ActionOutcome.Event event) {
      if (event.event().equals(State.EXHAUSTED)) {
        return Optional.of(applyErrorPolicy(running, machine, state, "the action emitted event `"
            + State.EXHAUSTED + "`, which is reserved: the retry policy fires it when it gives up",
            now, millis, random, by));
      }
      if (state.next(event.event()).isEmpty()) {
        return Optional.of(applyErrorPolicy(running, machine, state, "the action emitted event `"
            + Printable.of(event.event()) + "`, but state `" + state.name()
            + "` has no edge for it; its events: "
            + String.join(", ", state.on().keySet()), now, millis, random, by));
      }
      String context;
      try {
        context = Contexts.merge(running.context(), event.context(), "the action's context");
      } catch (FsmException e) {
        return Optional.of(applyErrorPolicy(running, machine, state, e.getMessage(), now, millis,
            random, by));
      }
      return Optional.of(fire(running, machine, state, event.event(), context, now, by, "")
          .withDuration(millis));
    }
    if (outcome instanceof ActionOutcome.Sleep sleep) {
      Task next = copy(running, running.state(), TaskStatus.SLEEPING, running.context(),
          running.attempt(), running.errors(), running.stateEntered(), running.lastAttempt(),
          now.plus(sleep.duration()), null);
      return Optional.of(new Change(next, new Transition(now, state.name(), "sleep", state.name(),
          millis, running.attempt(), by, "the action asked to sleep "
          + Durations.format(sleep.duration()))));
    }
    if (outcome instanceof ActionOutcome.Error error) {
      return Optional.of(applyErrorPolicy(running, machine, state, error.message(), now, millis,
          random, by));
    }
    ActionOutcome.Stopped stopped = (ActionOutcome.Stopped) outcome;
    if (stopped.reason() != Attempt.StopReason.TIMEOUT) {
      return Optional.empty();
    }
    if (state.next(State.TIMEOUT).isPresent()) {
      return Optional.of(fire(running, machine, state, State.TIMEOUT, null, now, by,
          "timed out after " + timeout).withDuration(millis));
    }
    return Optional.of(applyErrorPolicy(running, machine, state, "timed out after " + timeout,
        now, millis, random, by));
  }

  /**
   * The change that parks a task whose at-most-once attempt was interrupted: found open by the
   * next claim, or stopped by its own runner's shutdown, which records it at once.
   */
  public static Change interrupted(Task task, State state, Instant now, String by) {
    return fault(task, "attempt " + task.attempt() + " of at-most-once state `" + state.name()
        + "` (timeout: 0) was interrupted before it ended (its runner stopped or lost its"
        + " lease, or a command stopped the action), so it is not run again by itself; send"
        + " `sleep --until now` to"
        + " run it anyway, or `error` to fail the task", now, by);
  }

  /**
   * The change that hands a running task back unfinished (its runner is shutting down), so another
   * runner may claim it at once. Not for at-most-once attempts: {@link #interrupted} parks those.
   */
  public static Change released(Task running, Instant started, Instant now, String by) {
    Task next = copy(running, running.state(), TaskStatus.RUNNABLE, running.context(),
        running.attempt() - 1, running.errors(), running.stateEntered(), running.lastAttempt(),
        now, null);
    long millis = Math.max(0, Duration.between(started, now).toMillis());
    return new Change(next, new Transition(now, running.state(), "release", running.state(),
        millis, running.attempt(), by, "the runner stopped before the action ended"));
  }

  /**
   * The change a signal makes: fires {@code event} on a task waiting in an externally progressed
   * state.
   *
   * @throws FsmException when the task is not waiting for a signal or its state has no
   *     edge for the event
   */
  public static Change signal(Task task, Machine machine, String event, String context,
      Instant now, String by) {
    String who = "task `" + task.id() + "`";
    if (task.status().isTerminal()) {
      throw new FsmException(who + " is " + task.status().word()
          + ", which is final; it takes no signals");
    }
    State state = machine.state(task.state()).orElseThrow(() -> new FsmException(
        who + " is in state `" + task.state() + "`, which its machine version does not have"));
    if (!(state.behavior() instanceof Behavior.External)) {
      throw new FsmException(who + " is in state `" + state.name() + "`, which "
          + (state.behavior() instanceof Behavior.Wait ? "waits for a time" : "runs an action")
          + "; only states with no `run` or `wait` take signals");
    }
    if (task.status() != TaskStatus.RUNNABLE) {
      throw new FsmException(who + " is " + task.status().word()
          + "; send `run` first, then signal it");
    }
    if (event.equals(State.EXHAUSTED)) {
      throw new FsmException("event `" + State.EXHAUSTED + "` is reserved: the retry policy of"
          + " a state that runs an action fires it when it gives up; signal another event");
    }
    if (state.next(event).isEmpty()) {
      throw new FsmException("state `" + state.name() + "` of " + who
          + " has no edge for event `" + event + "`; its events: "
          + String.join(", ", state.on().keySet()));
    }
    String merged = Contexts.merge(task.context(), context, "--context");
    long waited = Math.max(0, Duration.between(task.stateEntered(), now).toMillis());
    return fire(task, machine, state, event, merged, now, by, "").withDuration(waited);
  }

  /**
   * True when the history (oldest first) ends, operators' entries aside, with the start of an
   * at-most-once attempt in {@code state}: the attempt began and no runner recorded its end.
   */
  public static boolean attemptOpen(List<Transition> history, String state) {
    for (int i = history.size() - 1; i >= 0; i--) {
      Transition t = history.get(i);
      if (!byRunner(t)) {
        continue;
      }
      return t.event().equals(START) && t.from().equals(state);
    }
    return false;
  }

  /** True for history entries a runner wrote, as opposed to an operator's command or signal. */
  public static boolean byRunner(Transition entry) {
    return AttemptErrors.byRunner(entry);
  }

  private static Change applyErrorPolicy(Task task, Machine machine, State state, String message,
      Instant now, long millis, double random, String by) {
    if (state.next(State.ERROR).isPresent()) {
      return fire(task, machine, state, State.ERROR, null, now, by,
          message == null ? lastError(task) : message).withDuration(millis);
    }
    List<TaskError> errors = new ArrayList<>(task.errors());
    if (message != null) {
      errors.add(new TaskError(now, message));
    }
    ErrorPolicy.Decision decision = ErrorPolicy.decide(state, errors, now, random);
    String reason = (message == null ? lastError(task) : message) + "; " + decision.explanation();
    if (decision.gaveUp() && state.next(State.EXHAUSTED).isPresent()) {
      // Like a Catch after a Retry: an ordinary transition, so the errors go as on any edge.
      return fire(task, machine, state, State.EXHAUSTED, null, now, by, reason)
          .withDuration(millis);
    }
    TaskStatus status = decision.retryAt() == null ? TaskStatus.FAILED : TaskStatus.SLEEPING;
    Task next = copy(task, task.state(), status, task.context(), task.attempt(), decision.errors(),
        task.stateEntered(), task.lastAttempt(), decision.retryAt(), null);
    return new Change(next, new Transition(now, state.name(), State.ERROR, state.name(), millis,
        task.attempt(), by, reason));
  }

  private static String lastError(Task task) {
    return task.errors().isEmpty() ? "error" : task.errors().get(task.errors().size() - 1)
        .message();
  }

  /** The change that puts a task in fault with an error, for an operator to decide on. */
  public static Change fault(Task task, String message, Instant now, String by) {
    List<TaskError> errors = new ArrayList<>(task.errors());
    errors.add(new TaskError(now, message));
    Task next = copy(task, task.state(), TaskStatus.FAULT, task.context(), task.attempt(), errors,
        task.stateEntered(), task.lastAttempt(), null, null);
    return new Change(next, new Transition(now, task.state(), State.ERROR, task.state(), 0,
        task.attempt(), by, message));
  }

  /** Moves along the edge for {@code event}; the caller checked the edge exists. */
  private static Change fire(Task task, Machine machine, State state, String event,
      String context, Instant now, String by, String reason) {
    String target = state.next(event).orElse(null);
    if (target == null) {
      return fault(task, "state `" + state.name() + "` has no edge for event `" + event + "`",
          now, by);
    }
    Task moved = copy(task, target, TaskStatus.RUNNABLE, context == null ? task.context() : context,
        0, List.of(), now, task.lastAttempt(), now, null);
    Task next = arrive(moved, machine.state(target).orElseThrow(), now);
    return new Change(next, new Transition(now, state.name(), event, target, 0, task.attempt(), by,
        reason));
  }

  /** The task as it arrives in (or settles into) {@code state}: status and due by its kind. */
  private static Task arrive(Task task, State state, Instant now) {
    Behavior b = state.behavior();
    TaskStatus status = TaskStatus.RUNNABLE;
    Instant due = now;
    if (b instanceof Behavior.Wait wait) {
      due = now.plus(wait.duration());
    } else if (b instanceof Behavior.External) {
      due = null;
    } else if (b instanceof Behavior.Final end) {
      status = end.outcome() == Outcome.COMPLETED ? TaskStatus.COMPLETED : TaskStatus.FAILED;
      due = null;
    }
    return copy(task, task.state(), status, task.context(), task.attempt(), task.errors(),
        task.stateEntered(), task.lastAttempt(), due, null);
  }

  private static Task copy(Task t, String state, TaskStatus status, String context, int attempt,
      List<TaskError> errors, Instant stateEntered, Instant lastAttempt, Instant due,
      Lease lease) {
    return new Task(t.id(), t.machine(), t.version(), state, status, context, attempt, errors,
        t.created(), stateEntered, lastAttempt, due, lease, t.pausing(), t.changed());
  }
}

package dev.fsm.engine;

import dev.fsm.FsmException;
import dev.fsm.action.ActionOutcome;
import dev.fsm.action.ActionRequest;
import dev.fsm.action.ActionRunner;
import dev.fsm.action.Attempt;
import dev.fsm.model.Behavior;
import dev.fsm.model.Machine;
import dev.fsm.model.State;
import dev.fsm.model.Timeout;
import dev.fsm.store.LeaseLostException;
import dev.fsm.store.Store;
import dev.fsm.task.Change;
import dev.fsm.task.Task;
import dev.fsm.task.Transition;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;

/** What a worker does with one claimed task: plan, run the action, compute the outcome. */
final class AttemptWork {

  private final Store store;
  private final MachineLibrary machines;
  private final ActionRunner actions;
  private final Timeouts timeouts;
  private final Clock clock;
  private final String owner;
  private final PendingUpgrades upgrades;
  private final RunListener listener;
  private final StoreOutage outage;

  AttemptWork(Store store, MachineLibrary machines, ActionRunner actions, Timeouts timeouts,
      Clock clock, String owner, RunListener listener, StoreOutage outage) {
    this.store = store;
    this.outage = outage;
    this.listener = listener;
    this.machines = machines;
    this.actions = actions;
    this.timeouts = timeouts;
    this.clock = clock;
    this.owner = owner;
    this.upgrades = new PendingUpgrades(store, machines);
  }

  /** Moves a task whose attempt was recorded while an upgrade waited for it. */
  void finishUpgrade(String id, String by) {
    upgrades.finish(id, clock, by);
  }

  /**
   * Works one claimed task on the calling worker thread.
   *
   * @return the change to record, or empty when there is nothing to record (the action was
   *     stopped by a command, a lost lease or a shutdown that must not release it)
   */
  Optional<Change> attempt(Task task, Runner.InFlight f, TimeoutTimer deadlines,
      BooleanSupplier stopNow) {
    String by = owner + "/w" + workerNumber();
    Instant now = clock.instant();
    double random = ThreadLocalRandom.current().nextDouble();
    Machine machine;
    try {
      // An outage is waited out, never taken for a version gone (which parks the task).
      Optional<Machine> found = machineOf(task, stopNow);
      if (found.isEmpty()) {
        return Optional.empty();
      }
      machine = found.get();
    } catch (FsmException e) {
      return Optional.of(Step.fault(task, e.getMessage(), now, by));
    }
    if (upgrades.mayOwe(task)) {
      // An upgrade waited for this task's last attempt, whose runner stopped before moving it.
      Optional<List<Transition>> history = historyOf(task, stopNow);
      if (history.isEmpty()) {
        return Optional.empty();
      }
      Optional<Change> owed = upgrades.owed(task, history.get(), now, by);
      if (owed.isPresent()) {
        Change move = owed.get();
        if (move.next().status() != task.status() || move.next().due() == null) {
          // Parked (its state is gone), ended, or waiting for a signal in the new version:
          // recorded as it is, with nothing to run now.
          return Optional.of(new Change(move.next().withLease(null), move.entry()));
        }
        try {
          record(move);
        } catch (LeaseLostException e) {
          return Optional.empty();
        }
        task = move.next();
        Optional<Machine> next = machineOf(task, stopNow);
        if (next.isEmpty()) {
          return Optional.empty();
        }
        machine = next.get();
      }
    }
    State state = machine.state(task.state()).orElse(null);
    boolean atMostOnce = state != null && state.behavior() instanceof Behavior.Run
        && state.timeout() instanceof Timeout.Never;
    boolean open = false;
    if (atMostOnce) {
      Optional<List<Transition>> history = historyOf(task, stopNow);
      if (history.isEmpty()) {
        return Optional.empty();
      }
      open = Step.attemptOpen(history.get(), task.state());
    }
    Plan plan = Step.claimed(task, machine, open, now, random, by);
    if (plan instanceof Plan.Record record) {
      return ended(f, machine, Optional.of(record.change()), false);
    }
    Plan.RunAction run = (Plan.RunAction) plan;
    if (run.startRecord().isPresent()) {
      try {
        record(run.startRecord().get());
      } catch (LeaseLostException e) {
        return Optional.empty();
      }
    }
    Timeouts.Limit limit = timeouts.limit(machine.name(), state);
    TimeoutTimer.Deadline deadline = limit.limit() == null ? null
        : deadlines.add(limit.limit(), () -> f.attempt.stop(Attempt.StopReason.TIMEOUT));
    Instant started = clock.instant();
    ActionOutcome outcome;
    try {
      outcome = actions.run(new ActionRequest(run.task(), machine, run.action(),
          machines.number(task.machine(), task.version()), by), f.attempt);
    } finally {
      if (deadline != null) {
        deadlines.forget(deadline);
      }
    }
    Instant end = clock.instant();
    if (outcome instanceof ActionOutcome.Stopped stopped
        && stopped.reason() == Attempt.StopReason.SHUTDOWN) {
      // Stopped at once, nothing is recorded: the lease's end hands the task on, and an
      // at-most-once attempt left open is parked by the next claim. Within the grace, the task
      // is handed back now, or parked now if its attempt may not run again.
      if (stopNow.getAsBoolean()) {
        return Optional.empty();
      }
      return Optional.of(atMostOnce ? Step.interrupted(run.task(), state, end, by)
          : Step.released(run.task(), started, end, by));
    }
    if (outcome instanceof ActionOutcome.Event) {
      timeouts.succeeded(machine.name(), state, Duration.between(started, end));
    }
    boolean timedOut = outcome instanceof ActionOutcome.Stopped halted
        && halted.reason() == Attempt.StopReason.TIMEOUT;
    return ended(f, machine, Step.finished(run.task(), machine, outcome, started, end,
        limit.text(), random, by), timedOut);
  }

  /*
   * The store reads an attempt needs, tried again while the store is unavailable (said once per
   * outage, as claims and records say it); empty when the runner stops meanwhile, and then the
   * lease's end hands the task on.
   */

  /** The task's machine version; a version read once is answered from memory. */
  private Optional<Machine> machineOf(Task t, BooleanSupplier stopNow) {
    return outage.retryMaybeCached("reading a machine version",
        () -> machines.machine(t.machine(), t.version()), stopNow);
  }

  private Optional<List<Transition>> historyOf(Task t, BooleanSupplier stopNow) {
    return outage.retry("reading a task's history", () -> store.history(t.id()), stopNow);
  }

  /** Records a change at once (not through the completer), telling how long it took. */
  private void record(Change change) {
    long began = System.nanoTime();
    store.record(owner, change);
    listener.committed(1, Duration.ofNanos(System.nanoTime() - began));
  }

  /**
   * {@code change}, after noting in {@code f} the attempt it ends, if it ends one: by the rule
   * {@code fsm stats} and the breaker follow ({@link AttemptResult}).
   */
  private static Optional<Change> ended(Runner.InFlight f, Machine machine,
      Optional<Change> change, boolean timedOut) {
    change.ifPresent(c -> {
      State from = machine.state(c.entry().from()).orElse(null);
      AttemptEnd.Result result = switch (AttemptResult.of(c.entry(), from)) {
        case SUCCEEDED -> AttemptEnd.Result.SUCCEEDED;
        case FAILED -> timedOut ? AttemptEnd.Result.TIMEOUT : AttemptEnd.Result.ERROR;
        case SLEPT -> AttemptEnd.Result.SLEPT;
        case NONE -> null;
      };
      if (result != null) {
        f.ended = new AttemptEnd(c.next().id(), c.next().machine(), c.entry().from(), result,
            Duration.ofMillis(c.entry().durationMillis()));
      }
    });
    return change;
  }

  private static String workerNumber() {
    String name = Thread.currentThread().getName();
    int dash = name.lastIndexOf('-');
    return dash < 0 ? name : name.substring(dash + 1);
  }
}

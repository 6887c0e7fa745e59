package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.action.ActionOutcome;
import dev.fsm.action.Attempt;
import dev.fsm.model.Machine;
import dev.fsm.task.Change;
import dev.fsm.task.Lease;
import dev.fsm.task.Pausing;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import dev.fsm.validate.FileReport;
import dev.fsm.validate.Validator;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The rules of a task's life, as pure functions: no threads, disks or clocks. */
class StepTest {

  private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");
  private static final String BY = "runner:1@host/w1";
  private static final Lease LEASE = new Lease("runner:1@host", T0.plusSeconds(30));

  private static final Machine ORDER = machine("""
      machine: order
      states:
        pay:
          run: builtin:noop
          timeout: 10s
          retry: {max_errors: 3, window: 1h, backoff: {initial: 1s, max: 1m, multiplier: 2}}
          on: {ok: ship, declined: cancelled}
        ship:
          run: builtin:noop
          on: {ok: await_signature, error: ship_later, timeout: ship_later, once: charge_once}
        ship_later: {wait: 5m, on: {ok: ship}}
        await_signature: {on: {signed: delivered, refused: cancelled}}
        charge_once: {run: builtin:noop, timeout: 0, on: {ok: delivered}}
        delivered: {final: completed}
        cancelled: {final: failed}
      """);

  @Test
  void aNewTaskStartsRunnableInTheInitialStateDueAtItsTime() {
    Task t = Step.start(ORDER, "v1", "t1", null, null, T0);
    assertThat(t.state()).isEqualTo("pay");
    assertThat(t.status()).isEqualTo(TaskStatus.RUNNABLE);
    assertThat(t.due()).isEqualTo(T0);
    assertThat(t.context()).isEqualTo("{}");
    Task later = Step.start(ORDER, "v1", "t2", "{\"a\":1}", T0.plusSeconds(60), T0);
    assertThat(later.due()).isEqualTo(T0.plusSeconds(60));
    assertThat(later.status()).as("its action may not run now").isEqualTo(TaskStatus.SLEEPING);
    Task past = Step.start(ORDER, "v1", "t3", null, T0.minusSeconds(60), T0);
    assertThat(past.due()).isEqualTo(T0);
    assertThat(past.status()).isEqualTo(TaskStatus.RUNNABLE);
    assertThat(Step.start(ORDER, "v1", "t4", null, T0, T0).status())
        .isEqualTo(TaskStatus.RUNNABLE);
  }

  @Test
  void anEventMovesAlongItsEdgeMergesTheContextAndReleasesTheLease() {
    Task running = running("pay", "{\"amount\":5,\"note\":\"x\"}");
    Change c = Step.finished(running, ORDER,
        new ActionOutcome.Event("ok", "{\"note\":\"paid\",\"receipt\":7}"), T0, T0.plusMillis(250),
        "10s", 0.5, BY).orElseThrow();
    assertThat(c.next().state()).isEqualTo("ship");
    assertThat(c.next().status()).isEqualTo(TaskStatus.RUNNABLE);
    assertThat(c.next().due()).isEqualTo(T0.plusMillis(250));
    assertThat(c.next().lease()).isNull();
    assertThat(c.next().attempt()).isZero();
    assertThat(c.next().context()).isEqualTo("{\"amount\":5,\"note\":\"paid\",\"receipt\":7}");
    assertThat(c.entry()).isEqualTo(new Transition(T0.plusMillis(250), "pay", "ok", "ship", 250,
        1, BY, ""));
  }

  @Test
  void arrivingInWaitExternalAndFinalStatesSetsStatusAndDue() {
    Change toWait = Step.finished(running("ship", "{}"), ORDER, new ActionOutcome.Error("carrier"),
        T0, T0, "5m", 0.5, BY).orElseThrow();
    assertThat(toWait.next().state()).isEqualTo("ship_later");
    assertThat(toWait.next().due()).isEqualTo(T0.plus(Duration.ofMinutes(5)));
    assertThat(toWait.entry().event()).isEqualTo("error");
    assertThat(toWait.entry().reason()).isEqualTo("carrier");

    Change toExternal = Step.finished(running("ship", "{}"), ORDER,
        new ActionOutcome.Event("ok", null), T0, T0, "5m", 0.5, BY).orElseThrow();
    assertThat(toExternal.next().state()).isEqualTo("await_signature");
    assertThat(toExternal.next().status()).isEqualTo(TaskStatus.RUNNABLE);
    assertThat(toExternal.next().due()).as("waits for a signal, not the clock").isNull();

    Change toFinal = Step.finished(running("pay", "{}"), ORDER,
        new ActionOutcome.Event("declined", null), T0, T0, "10s", 0.5, BY).orElseThrow();
    assertThat(toFinal.next().status()).isEqualTo(TaskStatus.FAILED);
    assertThat(toFinal.next().due()).isNull();
  }

  @Test
  void aClaimedWaitThatIsOverFiresOk() {
    Task waiting = task("ship_later", TaskStatus.RUNNABLE, "{}", T0, LEASE);
    Plan plan = Step.claimed(waiting, ORDER, false, T0, 0.5, BY);
    assertThat(plan).isInstanceOf(Plan.Record.class);
    Change c = ((Plan.Record) plan).change();
    assertThat(c.next().state()).isEqualTo("ship");
    assertThat(c.entry().event()).isEqualTo("ok");
  }

  @Test
  void aClaimedTaskStillPausingAfterItsStepIsPausedAtOnceAndRunsNothing() {
    // Its runner died mid-step (or released it): the step never recorded, so the pause waits no
    // longer, and an at-most-once attempt is not run again.
    Pausing mark = new Pausing(T0.minusSeconds(5), "user:ann", "deploy");
    for (String state : List.of("pay", "charge_once")) {
      Task claimed = task(state, TaskStatus.RUNNABLE, "{}", T0, LEASE).withPausing(mark);
      Plan plan = Step.claimed(claimed, ORDER, true, T0, 0.5, BY);
      assertThat(plan).isInstanceOf(Plan.Record.class);
      Change c = ((Plan.Record) plan).change();
      assertThat(c.next().status()).isEqualTo(TaskStatus.PAUSED);
      assertThat(c.next().state()).isEqualTo(state);
      assertThat(c.next().pausing()).isNull();
      assertThat(c.entry().event()).isEqualTo("pause");
      assertThat(c.entry().by()).isEqualTo("user:ann");
      assertThat(c.entry().reason()).isEqualTo("deploy");
    }
  }

  @Test
  void errorsSleepForTheBackoffUntilMaxErrorsThenFail() {
    Task t = running("pay", "{}");
    Change first = Step.finished(t, ORDER, new ActionOutcome.Error("card service down"), T0, T0,
        "10s", 0.5, BY).orElseThrow();
    assertThat(first.next().status()).isEqualTo(TaskStatus.SLEEPING);
    assertThat(first.next().due()).isEqualTo(T0.plusSeconds(1));
    assertThat(first.next().errors()).containsExactly(new TaskError(T0, "card service down"));
    assertThat(first.entry().reason()).contains("retry in 1s (1 of 3 errors in 1h)");

    Task again = withErrors(t, List.of(new TaskError(T0.minusSeconds(10), "a")));
    Change second = Step.finished(again, ORDER, new ActionOutcome.Error("b"), T0, T0, "10s", 0.5,
        BY).orElseThrow();
    assertThat(second.next().due()).as("multiplier 2").isEqualTo(T0.plusSeconds(2));

    Task old = withErrors(t, List.of(new TaskError(T0.minus(Duration.ofHours(2)), "old"),
        new TaskError(T0.minusSeconds(20), "a"), new TaskError(T0.minusSeconds(10), "b")));
    Change third = Step.finished(old, ORDER, new ActionOutcome.Error("c"), T0, T0, "10s", 0.5, BY)
        .orElseThrow();
    assertThat(third.next().status()).isEqualTo(TaskStatus.FAILED);
    assertThat(third.next().errors()).as("errors outside the window are trimmed")
        .extracting(TaskError::message).containsExactly("a", "b", "c");
    assertThat(third.entry().reason()).contains("failed: 3 of 3 errors in 1h");
  }

  @Test
  void anUnknownEventOrABadContextIsAnErrorNeverAGuess() {
    Change c = Step.finished(running("pay", "{}"), ORDER, new ActionOutcome.Event("shipped", null),
        T0, T0, "10s", 0.5, BY).orElseThrow();
    assertThat(c.next().status()).isEqualTo(TaskStatus.SLEEPING);
    assertThat(c.next().state()).isEqualTo("pay");
    assertThat(c.entry().reason()).contains("event `shipped`").contains("ok, declined");

    Change bad = Step.finished(running("pay", "{}"), ORDER, new ActionOutcome.Event("ok", "[1]"),
        T0, T0, "10s", 0.5, BY).orElseThrow();
    assertThat(bad.next().state()).isEqualTo("pay");
    assertThat(bad.entry().reason()).contains("must be a JSON object");
  }

  @Test
  void aTimeoutFollowsATimeoutEdgeOrCountsAsAnError() {
    Change edge = Step.finished(running("ship", "{}"), ORDER,
        new ActionOutcome.Stopped(Attempt.StopReason.TIMEOUT), T0, T0.plusSeconds(30), "30s", 0.5,
        BY).orElseThrow();
    assertThat(edge.next().state()).isEqualTo("ship_later");
    assertThat(edge.entry().event()).isEqualTo("timeout");
    assertThat(edge.entry().durationMillis()).isEqualTo(30_000);

    Change error = Step.finished(running("pay", "{}"), ORDER,
        new ActionOutcome.Stopped(Attempt.StopReason.TIMEOUT), T0, T0.plusSeconds(10), "10s", 0.5,
        BY).orElseThrow();
    assertThat(error.next().status()).isEqualTo(TaskStatus.SLEEPING);
    assertThat(error.next().errors()).extracting(TaskError::message)
        .containsExactly("timed out after 10s");
  }

  @Test
  void actionsStoppedByCommandsLeasesOrShutdownRecordNothing() {
    for (Attempt.StopReason r : List.of(Attempt.StopReason.COMMAND,
        Attempt.StopReason.LEASE_LOST, Attempt.StopReason.SHUTDOWN)) {
      assertThat(Step.finished(running("pay", "{}"), ORDER, new ActionOutcome.Stopped(r), T0, T0,
          "10s", 0.5, BY)).isEmpty();
    }
  }

  @Test
  void anActionAskingToSleepSleepsInItsState() {
    Change c = Step.finished(running("pay", "{}"), ORDER,
        new ActionOutcome.Sleep(Duration.ofMinutes(10)), T0, T0, "10s", 0.5, BY).orElseThrow();
    assertThat(c.next().status()).isEqualTo(TaskStatus.SLEEPING);
    assertThat(c.next().due()).isEqualTo(T0.plus(Duration.ofMinutes(10)));
    assertThat(c.next().lease()).isNull();
    assertThat(c.entry().event()).isEqualTo("sleep");
  }

  @Test
  void aTaskInFaultIsSettledByItsErrorPolicyWhenClaimed() {
    Task fault = withErrors(task("pay", TaskStatus.FAULT, "{}", T0, LEASE),
        List.of(new TaskError(T0, "sent by ops")));
    Change c = ((Plan.Record) Step.claimed(fault, ORDER, false, T0, 0.5, BY)).change();
    assertThat(c.next().status()).isEqualTo(TaskStatus.SLEEPING);
    assertThat(c.next().errors()).hasSize(1);
    assertThat(c.entry().reason()).startsWith("sent by ops; retry in 1s");
  }

  @Test
  void atMostOnceStatesRecordTheirStartAndAnOpenAttemptGoesToFault() {
    Task t = task("charge_once", TaskStatus.RUNNABLE, "{}", T0, LEASE);
    Plan.RunAction run = (Plan.RunAction) Step.claimed(t, ORDER, false, T0, 0.5, BY);
    assertThat(run.task().attempt()).isEqualTo(1);
    Change start = run.startRecord().orElseThrow();
    assertThat(start.entry().event()).isEqualTo(Step.START);
    assertThat(start.next().lease()).as("still held while the action runs").isEqualTo(LEASE);

    List<Transition> history = List.of(start.entry(),
        new Transition(T0, "charge_once", "checkpoint", "charge_once", 0, 1, "user:ops", ""));
    assertThat(Step.attemptOpen(history, "charge_once")).isTrue();
    Change fault = ((Plan.Record) Step.claimed(start.next(), ORDER, true, T0, 0.5, BY)).change();
    assertThat(fault.next().status()).isEqualTo(TaskStatus.FAULT);
    assertThat(fault.next().due()).as("waits for an operator").isNull();
    assertThat(Step.attemptOpen(List.of(start.entry(), fault.entry()), "charge_once")).isFalse();

    Plan.RunAction normal = (Plan.RunAction) Step.claimed(task("pay", TaskStatus.RUNNABLE, "{}",
        T0, LEASE), ORDER, false, T0, 0.5, BY);
    assertThat(normal.startRecord()).isEmpty();
  }

  @Test
  void signalsMoveTasksWaitingInExternalStatesAndAreRefusedElsewhere() {
    Task waiting = task("await_signature", TaskStatus.RUNNABLE, "{\"a\":1}", null, null);
    Change c = Step.signal(waiting, ORDER, "signed", "{\"by\":\"ann\"}", T0.plusSeconds(5), "u");
    assertThat(c.next().status()).isEqualTo(TaskStatus.COMPLETED);
    assertThat(c.next().context()).isEqualTo("{\"a\":1,\"by\":\"ann\"}");
    assertThat(c.entry().durationMillis()).isEqualTo(5_000);

    assertThatThrownBy(() -> Step.signal(waiting, ORDER, "lost", null, T0, "u"))
        .isInstanceOf(FsmException.class).hasMessageContaining("signed, refused");
    assertThatThrownBy(() -> Step.signal(task("pay", TaskStatus.RUNNABLE, "{}", T0, null), ORDER,
        "ok", null, T0, "u")).hasMessageContaining("runs an action");
    assertThatThrownBy(() -> Step.signal(task("await_signature", TaskStatus.PAUSED, "{}", null,
        null), ORDER, "signed", null, T0, "u")).hasMessageContaining("send `run` first");
    assertThatThrownBy(() -> Step.signal(task("delivered", TaskStatus.COMPLETED, "{}", null,
        null), ORDER, "signed", null, T0, "u")).hasMessageContaining("final");
  }

  @Test
  void aReleaseHandsTheTaskBackRunnableWithItsAttemptUndone() {
    Task running = running("pay", "{}");
    Change c = Step.released(running, T0, T0.plusSeconds(2), BY);
    assertThat(c.next().lease()).isNull();
    assertThat(c.next().due()).isEqualTo(T0.plusSeconds(2));
    assertThat(c.next().attempt()).isZero();
    assertThat(c.entry().event()).isEqualTo("release");
  }

  private static Task running(String state, String context) {
    Task claimed = task(state, TaskStatus.RUNNABLE, context, T0, LEASE);
    return ((Plan.RunAction) Step.claimed(claimed, ORDER, false, T0, 0.5, BY)).task();
  }

  private static Task task(String state, TaskStatus status, String context, Instant due,
      Lease lease) {
    return new Task("t1", "order", "v1", state, status, context, 0, List.of(), T0, T0, null, due,
        lease);
  }

  private static Task withErrors(Task t, List<TaskError> errors) {
    return new Task(t.id(), t.machine(), t.version(), t.state(), t.status(), t.context(),
        t.attempt(), errors, t.created(), t.stateEntered(), t.lastAttempt(), t.due(), t.lease());
  }

  private static Machine machine(String yaml) {
    FileReport report = Validator.check(Path.of("order.yaml"), yaml);
    Optional<Machine> m = report.machine();
    assertThat(report.diagnostics()).filteredOn(d -> d.isError()).isEmpty();
    return m.orElseThrow();
  }
}

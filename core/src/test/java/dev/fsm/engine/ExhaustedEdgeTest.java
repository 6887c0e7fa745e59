package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.action.ActionOutcome;
import dev.fsm.action.Attempt;
import dev.fsm.model.Machine;
import dev.fsm.model.State;
import dev.fsm.task.Change;
import dev.fsm.task.Lease;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import dev.fsm.validate.FileReport;
import dev.fsm.validate.Validator;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code exhausted} edge: the retry policy runs its course, then the task moves on. */
class ExhaustedEdgeTest {

  private static final Instant T0 = Instant.parse("2026-11-24T10:00:00Z");
  private static final String BY = "runner:1@host/w1";

  private static final Machine REFUND = machine("""
      machine: refund
      states:
        refund:
          run: builtin:fail bank down
          retry: {max_errors: 3, window: 1h, backoff: 30s}
          on: {ok: cancelled, exhausted: manual_review}
        plain:
          run: builtin:fail bank down
          retry: {max_errors: 3, window: 1h, backoff: 30s}
          on: {ok: cancelled}
        both:
          run: builtin:fail bank down
          on: {ok: cancelled, error: later, exhausted: manual_review}
        to_final:
          run: builtin:fail bank down
          retry: {max_errors: 1, window: 1h, backoff: 0s}
          on: {ok: cancelled, exhausted: cancelled}
        later: {wait: 5m, on: {ok: refund}}
        manual_review: {on: {done: cancelled, again: plain, both: both, final: to_final}}
        cancelled: {final: failed}
      """);

  @Test
  void retriesForTheBackoffThenTakesTheExhaustedEdgeAsAnOrdinaryTransition() {
    List<Change> changes = failRepeatedly("refund", 3);
    for (Change retry : changes.subList(0, 2)) {
      assertThat(retry.next().state()).isEqualTo("refund");
      assertThat(retry.next().status()).isEqualTo(TaskStatus.SLEEPING);
      assertThat(retry.entry().event()).isEqualTo(State.ERROR);
      assertThat(retry.next().due()).isEqualTo(retry.entry().time().plusSeconds(30));
    }
    assertThat(changes.get(1).entry().reason())
        .isEqualTo("bank down #2; retry in 30s (2 of 3 errors in 1h)");
    Change last = changes.get(2);
    Instant at = last.entry().time();
    assertThat(last.entry()).isEqualTo(new Transition(at, "refund", "exhausted", "manual_review",
        250, 3, BY, "bank down #3; exhausted, to `manual_review`: 3 of 3 errors in 1h"));
    Task next = last.next();
    assertThat(next.state()).isEqualTo("manual_review");
    assertThat(next.status()).as("a signal moves it on").isEqualTo(TaskStatus.RUNNABLE);
    assertThat(next.due()).isNull();
    assertThat(next.attempt()).isZero();
    assertThat(next.errors()).as("as on any transition").isEmpty();
    assertThat(next.stateEntered()).isEqualTo(at);
    assertThat(next.lease()).isNull();
  }

  @Test
  void withoutAnExhaustedEdgeTheTaskFailsAsBefore() {
    Change last = failRepeatedly("plain", 3).get(2);
    assertThat(last.next().state()).isEqualTo("plain");
    assertThat(last.next().status()).isEqualTo(TaskStatus.FAILED);
    assertThat(last.next().errors()).extracting(TaskError::message)
        .containsExactly("bank down #1", "bank down #2", "bank down #3");
    assertThat(last.entry().event()).isEqualTo(State.ERROR);
    assertThat(last.entry().reason()).isEqualTo("bank down #3; failed: 3 of 3 errors in 1h");
  }

  @Test
  void anErrorEdgeStillWinsAtTheFirstError() {
    Change first = failRepeatedly("both", 1).get(0);
    assertThat(first.next().state()).isEqualTo("later");
    assertThat(first.entry().event()).isEqualTo(State.ERROR);
    assertThat(first.entry().reason()).isEqualTo("bank down #1");
  }

  @Test
  void anExhaustedEdgeToAFinalStateEndsTheTaskThere() {
    Change last = failRepeatedly("to_final", 1).get(0);
    assertThat(last.next().state()).isEqualTo("cancelled");
    assertThat(last.next().status()).isEqualTo(TaskStatus.FAILED);
    assertThat(last.entry().event()).isEqualTo(State.EXHAUSTED);
  }

  @Test
  void aTaskInFaultWithItsBudgetUsedTakesTheEdgeWhenClaimed() {
    List<TaskError> errors = List.of(new TaskError(T0.minusSeconds(60), "a"),
        new TaskError(T0.minusSeconds(30), "b"), new TaskError(T0, "sent by ops"));
    Task fault = new Task("t1", "refund", "v1", "refund", TaskStatus.FAULT, "{}", 2, errors, T0,
        T0, null, null, new Lease("runner:1@host", T0.plusSeconds(30)));
    Change c = ((Plan.Record) Step.claimed(fault, REFUND, false, T0, 0.5, BY)).change();
    assertThat(c.next().state()).isEqualTo("manual_review");
    assertThat(c.entry().event()).isEqualTo(State.EXHAUSTED);
    assertThat(c.entry().reason())
        .isEqualTo("sent by ops; exhausted, to `manual_review`: 3 of 3 errors in 1h");
  }

  @Test
  void anActionCannotEmitExhaustedItIsAnError() {
    Task running = claim(start("refund"), T0);
    Change c = Step.finished(running, REFUND, new ActionOutcome.Event("exhausted", null), T0,
        T0, "10s", 0.5, BY).orElseThrow();
    assertThat(c.next().state()).isEqualTo("refund");
    assertThat(c.next().status()).isEqualTo(TaskStatus.SLEEPING);
    assertThat(c.entry().event()).isEqualTo(State.ERROR);
    assertThat(c.entry().reason()).isEqualTo("the action emitted event `exhausted`, which is"
        + " reserved: the retry policy fires it when it gives up; retry in 30s (1 of 3 errors in"
        + " 1h)");
  }

  @Test
  void aSignalCannotFireExhausted() {
    Task waiting = failRepeatedly("refund", 3).get(2).next();
    assertThatThrownBy(() -> Step.signal(waiting, REFUND, "exhausted", null, T0, "cli"))
        .isInstanceOf(FsmException.class)
        .hasMessage("event `exhausted` is reserved: the retry policy of a state that runs an"
            + " action fires it when it gives up; signal another event");
    assertThat(Step.signal(waiting, REFUND, "done", null, T0, "cli").next().state())
        .isEqualTo("cancelled");
  }

  @Test
  void timeoutsCountTowardsTheBudgetAndTheThirdTakesTheEdge() {
    Task task = start("refund");
    Instant now = T0;
    Change c = null;
    for (int i = 1; i <= 3; i++) {
      c = Step.finished(claim(task, now), REFUND,
          new ActionOutcome.Stopped(Attempt.StopReason.TIMEOUT), now, now.plusSeconds(10), "10s",
          0.5, BY).orElseThrow();
      task = c.next();
      now = now.plusSeconds(60);
    }
    assertThat(c.next().state()).isEqualTo("manual_review");
    assertThat(c.entry().reason())
        .isEqualTo("timed out after 10s; exhausted, to `manual_review`: 3 of 3 errors in 1h");
  }

  @Test
  void theEntryCountsAsAFailedAttemptForStatsAndTimeouts() {
    Transition exhausted = failRepeatedly("refund", 3).get(2).entry();
    assertThat(AttemptResult.of(exhausted, REFUND.state("refund").orElseThrow()))
        .isEqualTo(AttemptResult.FAILED);
  }

  /** Runs the state's action {@code times} times, each failing, 250 ms long, when it is due. */
  private static List<Change> failRepeatedly(String state, int times) {
    List<Change> changes = new ArrayList<>();
    Task task = start(state);
    Instant now = T0;
    for (int i = 1; i <= times; i++) {
      Task running = claim(task, now);
      Instant end = now.plusMillis(250);
      Change c = Step.finished(running, REFUND, new ActionOutcome.Error("bank down #" + i), now,
          end, "10s", 0.5, BY).orElseThrow();
      changes.add(c);
      task = c.next();
      now = task.due() == null ? end : task.due().plus(Duration.ofMillis(1));
    }
    return changes;
  }

  private static Task start(String state) {
    return new Task("t1", "refund", "v1", state, TaskStatus.RUNNABLE, "{}", 0, List.of(), T0, T0,
        null, T0, null);
  }

  private static Task claim(Task task, Instant now) {
    Task claimed = new Task(task.id(), task.machine(), task.version(), task.state(),
        TaskStatus.RUNNABLE, task.context(), task.attempt(), task.errors(), task.created(),
        task.stateEntered(), task.lastAttempt(), now, new Lease("runner:1@host",
        now.plusSeconds(30)));
    return ((Plan.RunAction) Step.claimed(claimed, REFUND, false, now, 0.5, BY)).task();
  }

  private static Machine machine(String yaml) {
    FileReport report = Validator.check(Path.of("refund.yaml"), yaml);
    assertThat(report.diagnostics()).filteredOn(d -> d.isError()).isEmpty();
    return report.machine().orElseThrow();
  }
}

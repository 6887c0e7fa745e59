package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.action.ActionOutcome;
import dev.fsm.action.Attempt;
import dev.fsm.model.Action;
import dev.fsm.model.Backoff;
import dev.fsm.model.Behavior;
import dev.fsm.model.BuiltinAction;
import dev.fsm.model.Machine;
import dev.fsm.model.RetryPolicy;
import dev.fsm.model.State;
import dev.fsm.model.Timeout;
import dev.fsm.model.UpgradeStrategy;
import dev.fsm.task.AttemptErrors;
import dev.fsm.task.Change;
import dev.fsm.task.Command;
import dev.fsm.task.Commands;
import dev.fsm.task.Task;
import dev.fsm.task.Transition;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every kind of attempt error, and what is not one, through the changes Step really makes. */
class AttemptErrorsTest {

  private static final Instant T0 = Instant.parse("2026-11-25T00:00:00Z");
  private static final String BY = "runner:1@host/w1";

  private static State run(String name, Map<String, String> on, RetryPolicy retry) {
    return new State(name, "", new Behavior.Run(new Action.Builtin(BuiltinAction.NOOP,
        List.of(), "builtin:noop")),
        Timeout.parse("30s"), retry, on);
  }

  private static Machine machine(State first) {
    Map<String, State> states = new LinkedHashMap<>();
    states.put(first.name(), first);
    for (String s : new String[] {"next", "caught", "review"}) {
      states.put(s, new State(s, "", new Behavior.External(), Timeout.DEFAULT,
          RetryPolicy.DEFAULT, Map.of("go", "next")));
    }
    return new Machine("m", "", first.name(), UpgradeStrategy.CONTINUE, states,
        Path.of("m.yaml"));
  }

  private static Transition after(Machine m, ActionOutcome outcome) {
    Task t = Step.start(m, "v1", "id1", "{}", null, T0);
    Plan.RunAction run = (Plan.RunAction) Step.claimed(t, m, false, T0, 0.5, BY);
    Change c = Step.finished(run.task(), m, outcome, T0, T0.plusSeconds(1), "30s", 0.5, BY)
        .orElseThrow();
    return c.entry();
  }

  private static final RetryPolicy ONE_TRY =
      new RetryPolicy(1, Duration.ofHours(1), Backoff.fixed(Duration.ofSeconds(1)));

  @Test
  void anErrorTheRetryPolicyRetriesIsAnError() {
    Transition e = after(machine(run("s", Map.of("ok", "next"), RetryPolicy.DEFAULT)),
        new ActionOutcome.Error("boom"));
    assertThat(AttemptErrors.isError(e)).isTrue();
    assertThat(e.reason()).startsWith("boom");
  }

  @Test
  void anErrorThatFailsTheTaskIsAnError() {
    Transition e = after(machine(run("s", Map.of("ok", "next"), ONE_TRY)),
        new ActionOutcome.Error("boom"));
    assertThat(AttemptErrors.isError(e)).isTrue();
    assertThat(e.reason()).startsWith("boom");
  }

  @Test
  void anErrorRoutedByAnErrorEdgeIsAnErrorAndKeepsItsMessage() {
    Transition e = after(machine(run("s", Map.of("ok", "next", "error", "caught"),
        RetryPolicy.DEFAULT)), new ActionOutcome.Error("card declined"));
    assertThat(e.to()).isEqualTo("caught");
    assertThat(AttemptErrors.isError(e)).isTrue();
    assertThat(e.reason()).isEqualTo("card declined");
  }

  @Test
  void anErrorRoutedByAnExhaustedEdgeIsAnErrorAndKeepsItsMessage() {
    Transition e = after(machine(run("s", Map.of("ok", "next", "exhausted", "review"), ONE_TRY)),
        new ActionOutcome.Error("gateway down"));
    assertThat(e.to()).isEqualTo("review");
    assertThat(AttemptErrors.isError(e)).isTrue();
    assertThat(e.reason()).startsWith("gateway down");
  }

  @Test
  void aTimeoutIsAnErrorWhetherRetriedOrRoutedByATimeoutEdge() {
    ActionOutcome timedOut = new ActionOutcome.Stopped(Attempt.StopReason.TIMEOUT);
    Transition retried = after(machine(run("s", Map.of("ok", "next"), RetryPolicy.DEFAULT)),
        timedOut);
    assertThat(AttemptErrors.isError(retried)).isTrue();
    assertThat(retried.reason()).startsWith("timed out after 30s");
    Transition routed = after(machine(run("s", Map.of("ok", "next", "timeout", "caught"),
        RetryPolicy.DEFAULT)), timedOut);
    assertThat(routed.to()).isEqualTo("caught");
    assertThat(AttemptErrors.isError(routed)).isTrue();
    assertThat(routed.reason()).isEqualTo("timed out after 30s");
  }

  @Test
  void anEventWithNoEdgeIsAnError() {
    Transition e = after(machine(run("s", Map.of("ok", "next"), RetryPolicy.DEFAULT)),
        new ActionOutcome.Event("nope", null));
    assertThat(AttemptErrors.isError(e)).isTrue();
  }

  @Test
  void successesAndSleepsAreNotErrors() {
    Machine m = machine(run("s", Map.of("ok", "next"), RetryPolicy.DEFAULT));
    assertThat(AttemptErrors.isError(after(m, new ActionOutcome.Event("ok", null)))).isFalse();
    assertThat(AttemptErrors.isError(after(m,
        new ActionOutcome.Sleep(Duration.ofMinutes(1))))).isFalse();
  }

  @Test
  void anOperatorsErrorCommandIsNotAnAttemptError() {
    Machine m = machine(run("s", Map.of("ok", "next"), RetryPolicy.DEFAULT));
    Task t = Step.start(m, "v1", "id1", "{}", null, T0);
    Change c = Commands.apply(t, Command.ERROR,
        new Commands.Request(null, "giving up", "user:alice"), T0);
    assertThat(AttemptErrors.isError(c.entry())).isFalse();
  }

  @Test
  void theErrorEventsAreTheReservedOnes() {
    assertThat(AttemptErrors.EVENTS).containsExactly(State.ERROR, State.TIMEOUT,
        State.EXHAUSTED);
    assertThat(AttemptErrors.RUNNER).isEqualTo(Step.RUNNER);
  }
}

package dev.fsm.action;

import static dev.fsm.action.Fixtures.builtin;
import static dev.fsm.action.Fixtures.start;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.model.BuiltinAction;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/** The built-in actions. */
@Isolated("asserts on time")
class BuiltinRunnerTest {

  @TempDir Path dir;

  private final Actions actions = new Actions(ActionOptions.DEFAULTS);

  @AfterEach
  void close() throws IOException {
    actions.close();
  }

  private ActionOutcome run(BuiltinAction action, String... args) {
    return actions.run(builtin(dir, action, args), new Attempt());
  }

  @Test
  void noopEmitsOkAndEmitEmitsItsEvent() {
    assertThat(run(BuiltinAction.NOOP)).isEqualTo(new ActionOutcome.Event("ok", null));
    assertThat(run(BuiltinAction.EMIT, "shipped"))
        .isEqualTo(new ActionOutcome.Event("shipped", null));
  }

  @Test
  void failErrorsWithItsMessageOrItsName() {
    assertThat(run(BuiltinAction.FAIL, "carrier", "is", "down"))
        .isEqualTo(new ActionOutcome.Error("carrier is down"));
    assertThat(run(BuiltinAction.FAIL)).isEqualTo(new ActionOutcome.Error("builtin:fail"));
  }

  @Test
  void sleepWaitsThenEmitsOk() {
    long before = System.nanoTime();
    assertThat(run(BuiltinAction.SLEEP, "150ms")).isEqualTo(new ActionOutcome.Event("ok", null));
    assertThat(Duration.ofNanos(System.nanoTime() - before))
        .isGreaterThanOrEqualTo(Duration.ofMillis(150));
  }

  @Test
  void aStoppedSleepReturnsAtOnce() throws Exception {
    Attempt attempt = new Attempt();
    CompletableFuture<ActionOutcome> outcome =
        start(actions, builtin(dir, BuiltinAction.SLEEP, "1h"), attempt);
    long before = System.nanoTime();
    attempt.stop(Attempt.StopReason.COMMAND);
    assertThat(outcome.get(5, TimeUnit.SECONDS))
        .isEqualTo(new ActionOutcome.Stopped(Attempt.StopReason.COMMAND));
    assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofMillis(500));
  }

  @Test
  void badArgumentsAreClearErrors() {
    assertThat(run(BuiltinAction.SLEEP, "soon")).isEqualTo(new ActionOutcome.Error(
        "builtin:sleep: bad duration `soon`; use a number and a unit (ms, s, m, h, d), like"
            + " `30s` or `1h30m`"));
    assertThat(run(BuiltinAction.EMIT)).isEqualTo(new ActionOutcome.Error(
        "`builtin:emit` has the wrong arguments; write `builtin:emit <event>`"));
  }
}

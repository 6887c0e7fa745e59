package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.model.Action;
import dev.fsm.model.Backoff;
import dev.fsm.model.Behavior;
import dev.fsm.model.BuiltinAction;
import dev.fsm.model.RetryPolicy;
import dev.fsm.model.State;
import dev.fsm.model.Timeout;
import dev.fsm.task.TaskError;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The retry policy's decision, and how it names giving up with and without an exhausted edge. */
class ErrorPolicyTest {

  private static final Instant NOW = Instant.parse("2026-11-24T10:00:00Z");
  private static final RetryPolicy THREE =
      new RetryPolicy(3, Duration.ofHours(1), Backoff.fixed(Duration.ofSeconds(30)));

  private static State state(Map<String, String> on) {
    return new State("refund", "", new Behavior.Run(new Action.Builtin(BuiltinAction.NOOP,
        List.of(), "builtin:noop")), new Timeout.Fixed(Duration.ofSeconds(10)), THREE, on);
  }

  private static List<TaskError> errors(int n) {
    return IntStream.range(0, n)
        .mapToObj(i -> new TaskError(NOW.minusSeconds(n - i), "e" + i)).toList();
  }

  @Test
  void retriesWhileUnderTheBudget() {
    ErrorPolicy.Decision d = ErrorPolicy.decide(state(Map.of("exhausted", "manual_review")),
        errors(2), NOW, 0.5);
    assertThat(d.gaveUp()).isFalse();
    assertThat(d.retryAt()).isEqualTo(NOW.plusSeconds(30));
    assertThat(d.explanation()).isEqualTo("retry in 30s (2 of 3 errors in 1h)");
  }

  @Test
  void givingUpNamesTheExhaustedEdgeWhenThereIsOne() {
    ErrorPolicy.Decision d = ErrorPolicy.decide(state(Map.of("ok", "done",
        "exhausted", "manual_review")), errors(3), NOW, 0.5);
    assertThat(d.gaveUp()).isTrue();
    assertThat(d.explanation()).isEqualTo("exhausted, to `manual_review`: 3 of 3 errors in 1h");
    assertThat(d.errors()).hasSize(3);
  }

  @Test
  void givingUpWithoutTheEdgeFails() {
    ErrorPolicy.Decision d = ErrorPolicy.decide(state(Map.of("ok", "done")), errors(4), NOW, 0.5);
    assertThat(d.gaveUp()).isTrue();
    assertThat(d.explanation()).isEqualTo("failed: 4 of 3 errors in 1h");
  }

  @Test
  void errorsOutsideTheWindowDoNotCount() {
    List<TaskError> old = List.of(new TaskError(NOW.minus(Duration.ofHours(2)), "old"),
        new TaskError(NOW.minus(Duration.ofMinutes(90)), "older"), new TaskError(NOW, "new"));
    ErrorPolicy.Decision d = ErrorPolicy.decide(state(Map.of("exhausted", "manual_review")), old,
        NOW, 0.5);
    assertThat(d.gaveUp()).isFalse();
    assertThat(d.errors()).extracting(TaskError::message).containsExactly("new");
  }
}

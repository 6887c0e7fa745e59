package dev.fsm.cli.verb.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.operations.NewTask;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class TaskLinesTest {

  private static final Instant NOW = Instant.parse("2030-01-31T09:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  @Test
  void everyKeyIsOptional() {
    assertThat(TaskLines.parse("{}", CLOCK)).isEqualTo(new NewTask(null, null, null));
    assertThat(TaskLines.parse("{\"id\": \"a1\", \"context\": {\"n\": 1}, \"at\": \"5m\"}",
        CLOCK)).isEqualTo(new NewTask("a1", "{\"n\":1}", NOW.plusSeconds(300)));
  }

  @Test
  void badLinesSayWhatIsWrong() {
    assertThatThrownBy(() -> TaskLines.parse("nope", CLOCK)).hasMessageStartingWith(
        "the line is not valid JSON at column ");
    assertThatThrownBy(() -> TaskLines.parse("{\"id\": \"a\"}, {\"id\": \"b\"}", CLOCK))
        .hasMessage("the line is not valid JSON at column 12: more text follows the JSON value;"
            + " give exactly one");
    assertThatThrownBy(() -> TaskLines.parse("{\"context\": {\"n\": 1e999}}", CLOCK))
        .hasMessageStartingWith("the line is not valid JSON at column 19: the number 1e999");
    assertThatThrownBy(() -> TaskLines.parse("{\"id\": \"a\", \"id\": \"b\"}", CLOCK))
        .hasMessageContaining("Duplicate field 'id'");
    assertThatThrownBy(() -> TaskLines.parse("{\"at\": \"+999999999-12-31T23:59:59Z\"}",
        CLOCK)).hasMessageContaining("is out of range");
    assertThatThrownBy(() -> TaskLines.parse("[1]", CLOCK)).hasMessageStartingWith(
        "each line must be a JSON object");
    assertThatThrownBy(() -> TaskLines.parse("{\"colour\": 1}", CLOCK))
        .hasMessage("unknown key `colour`; a line may have id, context and at");
    assertThatThrownBy(() -> TaskLines.parse("{\"context\": \"x\"}", CLOCK))
        .hasMessage("`context` must be a JSON object");
    assertThatThrownBy(() -> TaskLines.parse("{\"id\": \"a b\"}", CLOCK))
        .hasMessage("task id `a b` is not allowed: use 1 to 128 letters, digits and . _ : @ -,"
            + " starting with a letter or digit");
    assertThatThrownBy(() -> TaskLines.parse("{\"id\": 7}", CLOCK))
        .hasMessage("`id` must be a string");
    assertThatThrownBy(() -> TaskLines.parse("{\"at\": \"soon\"}", CLOCK))
        .hasMessageContaining("`soon` is neither a time nor a duration");
  }
}

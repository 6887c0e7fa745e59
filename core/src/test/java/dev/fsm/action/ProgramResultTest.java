package dev.fsm.action;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The action protocol's reading of a finished program's output and exit status. */
class ProgramResultTest {

  private static ActionOutcome stdout(String text) {
    return ProgramResult.of(text, false, "", 0);
  }

  @Test
  void onlyTheLastNonEmptyLineCounts() {
    assertThat(stdout("{\"event\": \"early\"}\nlater text\n")).isEqualTo(
        new ActionOutcome.Event("ok", null));
    assertThat(stdout("log\n  {\"event\": \"late\"}  \n\n\n")).isEqualTo(
        new ActionOutcome.Event("late", null));
    assertThat(stdout("{\"event\": \"no newline\"}")).isEqualTo(
        new ActionOutcome.Event("no newline", null));
  }

  @Test
  void badResultLinesAreErrorsThatSayWhatWasExpected() {
    assertThat(stdout("{\"event\": \"ok\",}")).isInstanceOf(ActionOutcome.Error.class)
        .extracting(o -> ((ActionOutcome.Error) o).message()).asString()
        .startsWith("the last stdout line `{\"event\": \"ok\",}` starts like a result but is not"
            + " valid JSON at column 16: Unexpected character");
    assertThat(stdout("{\"event\": \"\"}")).isEqualTo(new ActionOutcome.Error(
        "result line: `event` must be a non-empty string, not \"\""));
    assertThat(stdout("{\"event\": \"ok\", \"context\": [1]}")).isEqualTo(
        new ActionOutcome.Error("result line: `context` must be a JSON object, not [1]"));
    assertThat(stdout("{\"event\": \"ok\", \"sleep\": \"1m\"}")).isEqualTo(
        new ActionOutcome.Error("result line {\"event\": \"ok\", \"sleep\": \"1m\"} has the"
            + " wrong shape; expected {\"event\": \"...\", \"context\": {...}}, {\"sleep\":"
            + " \"10m\"} or {\"error\": \"...\"}"));
    assertThat(stdout("{\"sleep\": 10}")).isEqualTo(new ActionOutcome.Error(
        "result line: `sleep` must be a duration such as \"10m\", not 10"));
    assertThat(stdout("{\"error\": \" \"}")).isEqualTo(
        new ActionOutcome.Error("the program reported an error without a message"));
  }

  @Test
  void aNullContextIsNoContext() {
    assertThat(stdout("{\"event\": \"ok\", \"context\": null}"))
        .isEqualTo(new ActionOutcome.Event("ok", null));
    assertThat(stdout("{\"sleep\": \"250ms\"}"))
        .isEqualTo(new ActionOutcome.Sleep(Duration.ofMillis(250)));
  }

  @Test
  void aLastLineThatStartsWithABraceButIsCutOffIsAnErrorWhateverTheStatus() {
    for (int status : new int[] {0, 3}) {
      ActionOutcome outcome = ProgramResult.of("log\n{\"event\": \"declined\", \n", false,
          "", status);
      assertThat(outcome).as("status " + status).isEqualTo(new ActionOutcome.Error(
          "the last stdout line `{\"event\": \"declined\",` starts like a result but is not"
              + " valid JSON at column 22: Unexpected end-of-input within/between Object"
              + " entries; expected {\"event\": \"...\", \"context\": {...}}, {\"sleep\":"
              + " \"10m\"} or {\"error\": \"...\"}"));
    }
    assertThat(ProgramResult.of("{ starting\n", false, "", 0))
        .isInstanceOf(ActionOutcome.Error.class);
    assertThat(ProgramResult.of("starting }\n", false, "", 0))
        .isEqualTo(new ActionOutcome.Event("ok", null));
  }

  @Test
  void resultsWithBadNumbersDuplicateKeysOrHugeTextAreErrors() {
    assertThat(stdout("{\"event\": \"ok\", \"context\": {\"n\": 1e999}}"))
        .isEqualTo(new ActionOutcome.Error("the last stdout line `{\"event\": \"ok\","
            + " \"context\": {\"n\": 1e999}}` starts like a result but is not valid JSON at"
            + " column 34: the number 1e999 is too large; numbers must fit a double (about"
            + " 1.8e308); expected {\"event\": \"...\", \"context\": {...}}, {\"sleep\":"
            + " \"10m\"} or {\"error\": \"...\"}"));
    assertThat(stdout("{\"event\": \"ok\", \"event\": \"declined\"}"))
        .isInstanceOf(ActionOutcome.Error.class).extracting(o -> ((ActionOutcome.Error) o)
            .message()).asString().contains("Duplicate field 'event'");
    assertThat(stdout("{\"error\": \"" + "e".repeat(50_000) + "\"}")).extracting(o ->
        ((ActionOutcome.Error) o).message()).asString().hasSize(ProgramResult.STDERR_CHARS)
        .endsWith("...");
    assertThat(stdout("{\"event\": \"" + "v".repeat(50_000) + "\"}")).isEqualTo(
        new ActionOutcome.Error("result line: `event` is 50000 characters long; events are"
            + " names of the state's edges, such as \"ok\""));
  }

  @Test
  void theStderrTailIsAFewLinesOfBoundedLength() {
    assertThat(ProgramResult.tail("a\n\nb\nc\nd\ne\nf\n\n")).isEqualTo("b\nc\nd\ne\nf");
    String longLine = "x".repeat(5000) + "END";
    String tail = ProgramResult.tail(longLine);
    assertThat(tail).startsWith("...x").endsWith("END")
        .hasSize(ProgramResult.STDERR_CHARS + 3);
    assertThat(ProgramResult.tail("short\n" + "y".repeat(999))).isEqualTo("y".repeat(999));
  }

  @Test
  void aStatusAbove128NamesTheSignal() {
    assertThat(ProgramResult.exitText(137)).isEqualTo("exited with status 137, SIGKILL");
    assertThat(ProgramResult.exitText(143)).isEqualTo("exited with status 143, SIGTERM");
    assertThat(ProgramResult.exitText(2)).isEqualTo("exited with status 2");
    assertThat(ProgramResult.of("", false, "Killed\n", 137))
        .isEqualTo(new ActionOutcome.Error("Killed (exited with status 137, SIGKILL)"));
  }
}

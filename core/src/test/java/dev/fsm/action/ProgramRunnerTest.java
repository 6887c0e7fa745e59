package dev.fsm.action;

import static dev.fsm.action.Fixtures.program;
import static dev.fsm.action.Fixtures.script;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Programs run by the action protocol: what they are given and how their result is read. */
class ProgramRunnerTest {

  @TempDir Path dir;

  private final Actions actions = new Actions(ActionOptions.DEFAULTS);

  @AfterEach
  void close() throws IOException {
    actions.close();
  }

  private ActionOutcome run(String body) throws IOException {
    script(dir, "scripts/act.sh", body);
    return actions.run(program(dir, "scripts/act.sh"), new Attempt());
  }

  @Test
  void exitZeroWithoutAResultLineIsOk() throws IOException {
    assertThat(run("echo working; echo done >&2"))
        .isEqualTo(new ActionOutcome.Event("ok", null));
  }

  @Test
  void otherExitsAreErrorsQuotingTheTailOfStderr() throws IOException {
    StringBuilder body = new StringBuilder("echo some output\n");
    for (int i = 1; i <= 20; i++) {
      body.append("echo line ").append(i).append(" >&2\n");
    }
    body.append("exit 3");
    assertThat(run(body.toString())).isEqualTo(new ActionOutcome.Error(
        "line 16\nline 17\nline 18\nline 19\nline 20 (exited with status 3)"));
  }

  @Test
  void anExitWithEmptyStderrSaysTheStatus() throws IOException {
    assertThat(run("exit 3")).isEqualTo(new ActionOutcome.Error("exited with status 3"));
  }

  @Test
  void aResultLineNamesTheEventAndItsContextCompactly() throws IOException {
    ActionOutcome outcome = run("echo progress\n"
        + "echo '{\"event\": \"declined\", \"context\": {\"reason\": \"card\",  \"n\": [1, 2]}}'\n"
        + "echo\n");
    assertThat(outcome).isEqualTo(
        new ActionOutcome.Event("declined", "{\"reason\":\"card\",\"n\":[1,2]}"));
  }

  @Test
  void theResultLineWinsOverTheExitStatus() throws IOException {
    assertThat(run("echo '{\"event\": \"shipped\"}'; exit 4"))
        .isEqualTo(new ActionOutcome.Event("shipped", null));
  }

  @Test
  void aResultLineCanAskToSleepOrReportAnError() throws IOException {
    assertThat(run("echo '{\"sleep\": \"1h30m\"}'"))
        .isEqualTo(new ActionOutcome.Sleep(Duration.ofMinutes(90)));
    assertThat(run("echo '{\"error\": \"carrier down\"}'"))
        .isEqualTo(new ActionOutcome.Error("carrier down"));
  }

  @Test
  void aJsonObjectOfAnotherShapeIsAnError() throws IOException {
    assertThat(run("echo '{\"status\": \"ok\"}'")).isEqualTo(new ActionOutcome.Error(
        "result line has unexpected key `status`; expected {\"event\": \"...\", \"context\":"
            + " {...}}, {\"sleep\": \"10m\"} or {\"error\": \"...\"}"));
    assertThat(run("echo '{\"sleep\": \"soon\"}'")).isEqualTo(new ActionOutcome.Error(
        "result line: bad duration `soon`; use a number and a unit (ms, s, m, h, d), like `30s`"
            + " or `1h30m`"));
  }

  @Test
  void stdinHoldsTheTaskAndTheEnvironmentNamesIt() throws IOException {
    ActionOutcome outcome = run("cat > stdin.json\n"
        + "echo \"$FSM_TASK_ID $FSM_MACHINE $FSM_STATE $FSM_ATTEMPT $FSM_RUNNER\" > env.txt\n"
        + "pwd > pwd.txt\n"
        + "echo \"$HOME\" > home.txt");
    assertThat(outcome).isEqualTo(new ActionOutcome.Event("ok", null));
    JsonNode stdin = new ObjectMapper().readTree(dir.resolve("stdin.json").toFile());
    assertThat(stdin.toString()).isEqualTo("{\"id\":\"t-42\",\"machine\":\"order\","
        + "\"version\":2,\"state\":\"pay\",\"attempt\":3,\"context\":{\"amount\":12}}");
    assertThat(Files.readString(dir.resolve("env.txt")))
        .isEqualTo("t-42 order pay 3 " + Fixtures.RUNNER + "\n");
    assertThat(Path.of(Files.readString(dir.resolve("pwd.txt")).strip()))
        .isEqualTo(dir.toRealPath());
    assertThat(Files.readString(dir.resolve("home.txt")).strip())
        .isEqualTo(System.getenv("HOME"));
  }

  @Test
  void aProgramThatDoesNotReadStdinNeitherFailsNorHangs() throws IOException {
    String big = "{\"blob\":\"" + "x".repeat(900_000) + "\"}";
    script(dir, "quiet.sh", "exit 0");
    var request = program(dir, "./quiet.sh");
    var withBigContext = new ActionRequest(Fixtures.task(big), request.machine(),
        request.action(), request.versionNumber(), request.runner());
    assertThat(actions.run(withBigContext, new Attempt()))
        .isEqualTo(new ActionOutcome.Event("ok", null));
  }

  @Test
  void argumentsArePassedWithoutAShell() throws IOException {
    script(dir, "args.sh", "printf '%s|' \"$@\" > args.txt");
    actions.run(program(dir, "./args.sh", "a b", "$HOME", "*"), new Attempt());
    assertThat(Files.readString(dir.resolve("args.txt"))).isEqualTo("a b|$HOME|*|");
  }

  @Test
  void aBareNameIsLookedUpOnPath() {
    assertThat(actions.run(program(dir, "true"), new Attempt()))
        .isEqualTo(new ActionOutcome.Event("ok", null));
    assertThat(actions.run(program(dir, "no-such-program-here"), new Attempt()))
        .isEqualTo(new ActionOutcome.Error("program `no-such-program-here` is not on PATH;"
            + " install it, or give a path relative to the machine file"));
  }

  @Test
  void aMissingOrNonExecutableProgramIsAClearError() throws IOException {
    assertThat(actions.run(program(dir, "scripts/gone.sh"), new Attempt())).isEqualTo(
        new ActionOutcome.Error("program `scripts/gone.sh` does not exist (looked for "
            + dir.resolve("scripts/gone.sh") + ")"));
    Files.writeString(dir.resolve("plain.sh"), "echo hi\n");
    assertThat(actions.run(program(dir, "./plain.sh"), new Attempt())).isEqualTo(
        new ActionOutcome.Error("program `./plain.sh` is not executable; run `chmod +x "
            + dir.resolve("plain.sh") + "`"));
  }

  @Test
  void megabytesOfStdoutEndWithTheResultLine() throws IOException {
    ActionOutcome outcome = run("head -c 8000000 /dev/zero | tr '\\0' 'x'; echo\n"
        + "echo '{\"event\": \"big\"}'");
    assertThat(outcome).isEqualTo(new ActionOutcome.Event("big", null));
  }

  @Test
  void megabytesOfStderrAreCutToTheirLastLines() throws IOException {
    ActionOutcome outcome = run("head -c 8000000 /dev/zero | tr '\\0' 'e' >&2\n"
        + "echo >&2; echo 'the real problem' >&2; exit 1");
    assertThat(outcome)
        .isEqualTo(new ActionOutcome.Error("the real problem (exited with status 1)"));
  }

  @Test
  void aResultLineLongerThanTheCapIsAnError() throws IOException {
    try (Actions small = new Actions(ActionOptions.DEFAULTS.withOutputCap(4096))) {
      script(dir, "long.sh", "printf '{\"event\": \"ok\", \"context\": {\"x\": \"'\n"
          + "head -c 10000 /dev/zero | tr '\\0' 'x'; echo '\"}}'");
      assertThat(small.run(program(dir, "./long.sh"), new Attempt())).isEqualTo(
          new ActionOutcome.Error("the last stdout line is longer than the output cap; write a"
              + " shorter result line"));
    }
  }

  @Test
  void workersShareOneInstanceAndEachGetsItsOwnResult() throws Exception {
    script(dir, "echo.sh", "sleep 0.1; echo \"{\\\"event\\\": \\\"e$1\\\"}\"");
    List<CompletableFuture<ActionOutcome>> outcomes = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      outcomes.add(Fixtures.start(actions, program(dir, "./echo.sh", "" + i), new Attempt()));
    }
    for (int i = 0; i < 8; i++) {
      assertThat(outcomes.get(i).get(10, TimeUnit.SECONDS))
          .isEqualTo(new ActionOutcome.Event("e" + i, null));
    }
  }
}

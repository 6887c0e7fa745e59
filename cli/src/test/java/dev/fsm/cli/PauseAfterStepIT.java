package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fsm send ID pause --after-step} on the real jar, with a runner owning the store: the
 * action runs on until the test lets it finish (it waits for a file named after its task), its
 * step is recorded, and the task is paused where the step led, even across a killed runner.
 */
class PauseAfterStepIT {

  private static final Duration LIMIT = Duration.ofSeconds(30);

  @TempDir Path dir;

  private final List<FsmProcess> processes = new ArrayList<>();

  @BeforeEach
  void machines() throws IOException {
    Path machines = Files.createDirectories(dir.resolve("machines"));
    // Programs run in the machines folder. Each attempt notes its task, runner and stdin, then
    // blocks until go-ID exists; with fail-ID there too, it fails.
    Files.writeString(machines.resolve("block.sh"), """
        #!/bin/sh
        cat > "stdin-$FSM_TASK_ID.json"
        echo "$FSM_TASK_ID $FSM_RUNNER" >> ran.log
        while ! test -f "go-$FSM_TASK_ID"; do sleep 0.05; done
        if test -f "fail-$FSM_TASK_ID"; then echo "carrier down" >&2; exit 1; fi
        exit 0
        """);
    machines.resolve("block.sh").toFile().setExecutable(true);
    Files.writeString(machines.resolve("work.yaml"), """
        machine: work
        states:
          step:
            run: ./block.sh
            retry: {max_errors: 3, window: 1h, backoff: 10m}
            on: {ok: next}
          next:
            run: builtin:noop
            on: {ok: done}
          done: {final: completed}
        """);
    Files.writeString(machines.resolve("last.yaml"), """
        machine: last
        states:
          step:
            run: ./block.sh
            on: {ok: done}
          done: {final: completed}
        """);
  }

  @AfterEach
  void stopProcesses() throws IOException {
    // Whatever a failed test left blocking may end now.
    for (String id : List.of("a-1", "a-2", "a-3", "a-4", "a-5", "a-6")) {
      Path go = dir.resolve("machines/go-" + id);
      if (!Files.exists(go)) {
        Files.createFile(go);
      }
    }
    processes.forEach(FsmProcess::close);
  }

  private StoreCommands fsm() {
    return new StoreCommands(dir, "store");
  }

  private FsmProcess runner() {
    FsmProcess runner = FsmProcess.start(dir, "run", "--store", "store").awaitServing();
    processes.add(runner);
    return runner;
  }

  private List<String> attempts(String id) throws IOException {
    Path log = dir.resolve("machines/ran.log");
    if (!Files.exists(log)) {
      return List.of();
    }
    return Files.readAllLines(log).stream().filter(l -> l.startsWith(id + " ")).toList();
  }

  private void awaitRunning(String id) {
    Await.until(id + "'s action to start", LIMIT, () -> {
      try {
        return !attempts(id).isEmpty();
      } catch (IOException e) {
        return false;
      }
    });
  }

  private void letFinish(String id) throws IOException {
    Files.createFile(dir.resolve("machines/go-" + id));
  }

  private String stateAndStatus(String id) throws IOException {
    JsonNode task = fsm().json("show", id);
    return task.get("state").asText() + " " + task.get("status").asText();
  }

  private void awaitStatus(String id, String stateAndStatus) {
    Await.until(id + " to be " + stateAndStatus, LIMIT, () -> {
      try {
        return stateAndStatus(id).equals(stateAndStatus);
      } catch (IOException | AssertionError e) {
        return false;
      }
    });
  }

  /** A task's {@code show} and its history's events, asked in one shell. */
  private record Seen(JsonNode task, List<String> events) {
    String stateAndStatus() {
      return task.get("state").asText() + " " + task.get("status").asText();
    }
  }

  private Seen seen(String id) throws IOException {
    List<JsonNode> both = fsm().jsonEach(List.of(List.of("show", id), List.of("history", id)));
    List<String> events = new ArrayList<>();
    both.get(1).forEach(e -> events.add(e.get("event").asText()));
    return new Seen(both.get(0), events);
  }

  @Test
  void theStepIsRecordedThenTheTaskPausesInTheNextStateAsTheOperatorAsked() throws IOException {
    runner();
    fsm().ok("start", "work", "--id", "a-1");
    awaitRunning("a-1");

    assertThat(fsm().ok("send", "--machine", "work", "--status", "runnable", "pause",
        "--after-step", "--dry-run").out())
        .isEqualTo("pause --after-step (dry run): 1 task matched, 1 would change, 0 refused\n");
    assertThat(fsm().ok("send", "a-1", "pause", "--after-step", "--reason", "deploy").out())
        .isEqualTo("a-1: pause --after-step sent; still runnable, pausing after the running"
            + " step\n");
    assertThat(fsm().ok("send", "a-1", "pause", "--after-step").out())
        .as("a second ask changes nothing").contains("pausing after the running step");
    String shown = fsm().ok("show", "a-1").out();
    assertThat(shown).contains("status    runnable, pausing\n")
        .containsPattern("pausing   after the running step \\(pause --after-step by user:\\S+"
            + " at [-0-9]+ [:0-9]+: deploy\\)");
    JsonNode asked = fsm().json("show", "a-1");
    JsonNode pausing = asked.get("pausing");
    assertThat(pausing.get("by").asText()).startsWith("user:");
    assertThat(pausing.get("reason").asText()).isEqualTo("deploy");
    assertThat(asked.get("state").asText() + " " + asked.get("status").asText())
        .isEqualTo("step runnable");

    letFinish("a-1");
    awaitStatus("a-1", "next paused");
    Seen paused = seen("a-1");
    JsonNode task = paused.task();
    assertThat(task.get("pausing").isNull()).isTrue();
    assertThat(paused.events())
        .containsExactly("pause --after-step", "pause --after-step", "ok", "pause");
    JsonNode history = task.get("history");
    JsonNode pause = history.get(3);
    assertThat(pause.get("from").asText()).isEqualTo("next");
    assertThat(pause.get("by").asText()).isEqualTo(pausing.get("by").asText());
    assertThat(pause.get("reason").asText()).isEqualTo("deploy");

    // SPEC 2: the program saw the version number and the runner that history names.
    JsonNode stdin = new ObjectMapper().readTree(dir.resolve("machines/stdin-a-1.json").toFile());
    assertThat(stdin.get("version").isInt()).isTrue();
    assertThat(stdin.get("version").asInt()).isEqualTo(1);
    assertThat(attempts("a-1")).containsExactly("a-1 " + history.get(2).get("by").asText());
    assertThat(history.get(2).get("by").asText()).matches("runner:\\d+@\\S+/w\\d+");

    assertThat(fsm().ok("send", "a-1", "resume").out())
        .isEqualTo("a-1: resume sent; paused -> runnable\n");
    awaitStatus("a-1", "done completed");
    FsmJar.Result refused = fsm().run("send", "a-1", "resume");
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.err()).isEqualTo("fsm: task `a-1`: `resume` is not allowed: the task is"
        + " completed, which is final; no command changes it\n");
  }

  @Test
  void aStepThatEndsTheTaskEndsItThere() throws IOException {
    runner();
    fsm().ok("start", "last", "--id", "a-2");
    awaitRunning("a-2");
    fsm().ok("send", "a-2", "pause", "--after-step");
    letFinish("a-2");
    awaitStatus("a-2", "done completed");
    Seen done = seen("a-2");
    assertThat(done.events()).containsExactly("pause --after-step", "ok");
    assertThat(done.task().get("pausing").isNull()).isTrue();
  }

  @Test
  void anErrorWhosePolicyWouldSleepPausesTheTaskWithTheErrorRecorded() throws IOException {
    runner();
    Files.createFile(dir.resolve("machines/fail-a-3"));
    fsm().ok("start", "work", "--id", "a-3");
    awaitRunning("a-3");
    fsm().ok("send", "a-3", "pause", "--after-step", "--reason", "look at it");
    letFinish("a-3");
    awaitStatus("a-3", "step paused");
    Seen paused = seen("a-3");
    JsonNode task = paused.task();
    assertThat(task.get("due").isNull()).isTrue();
    assertThat(task.get("errors").get(0).get("message").asText()).startsWith("carrier down");
    assertThat(paused.events()).containsExactly("pause --after-step", "error", "pause");
  }

  @Test
  void aRunnerKilledWhileTheTaskIsPausingLeavesItToTheNextRunnerToPauseWithoutRunningAgain()
      throws IOException {
    FsmProcess first = runner();
    fsm().ok("start", "work", "--id", "a-4");
    awaitRunning("a-4");
    fsm().ok("send", "a-4", "pause", "--after-step", "--reason", "deploy");
    first.kill();
    first.awaitExit(LIMIT);
    // The file lets the orphaned program end, had the next runner not stopped it already.
    letFinish("a-4");

    runner();
    awaitStatus("a-4", "step paused");
    Seen paused = seen("a-4");
    assertThat(paused.events()).containsExactly("pause --after-step", "pause");
    assertThat(paused.task().get("history").get(1).get("reason").asText())
        .isEqualTo("deploy");
    assertThat(attempts("a-4")).as("the action ran once, before the kill").hasSize(1);
  }

  @Test
  void runCancelsAPendingPauseAndAPlainPauseActsAtOnce() throws IOException {
    runner();
    fsm().jsonEach(List.of(List.of("start", "work", "--id", "a-5"),
        List.of("start", "work", "--id", "a-6")));
    awaitRunning("a-5");
    awaitRunning("a-6");
    fsm().jsonEach(List.of(List.of("send", "a-5", "pause", "--after-step"),
        List.of("send", "a-6", "pause", "--after-step")));

    assertThat(fsm().ok("send", "a-5", "run").out()).isEqualTo("a-5: run sent; still runnable\n");
    assertThat(fsm().json("show", "a-5").get("pausing").isNull()).isTrue();
    letFinish("a-5");
    awaitStatus("a-5", "done completed");

    assertThat(fsm().ok("send", "a-6", "pause").out())
        .isEqualTo("a-6: pause sent; runnable -> paused\n");
    Seen paused = seen("a-6");
    assertThat(paused.stateAndStatus()).isEqualTo("step paused");
    assertThat(paused.events()).containsExactly("pause --after-step", "pause");

    FsmJar.Result usage = fsm().run("send", "a-6", "kill", "--after-step");
    assertThat(usage.exit()).isEqualTo(2);
    assertThat(usage.err()).startsWith("fsm: --after-step is for `pause` only\n");
  }
}

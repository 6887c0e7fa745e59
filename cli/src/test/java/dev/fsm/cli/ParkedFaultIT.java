package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task parked in {@code fault} (an at-most-once attempt its runner died in) through the jar:
 * {@code run --until-idle} counts it as idle, and {@code show} says what an operator can do.
 */
class ParkedFaultIT {

  private static final Duration LIMIT = Duration.ofSeconds(30);

  @TempDir Path dir;

  private final List<FsmProcess> processes = new ArrayList<>();

  @AfterEach
  void stopProcesses() throws IOException {
    Path go = dir.resolve("machines/go");
    if (Files.exists(dir.resolve("machines")) && !Files.exists(go)) {
      Files.createFile(go);
    }
    processes.forEach(FsmProcess::close);
  }

  @Test
  void untilIdleLeavesAParkedTaskAndShowSaysHowToRetryOrFailIt() throws IOException {
    Path machines = Files.createDirectories(dir.resolve("machines"));
    // The charge notes that it started, then blocks until the test is done with it.
    Files.writeString(machines.resolve("once.yaml"), """
        machine: once
        states:
          charge:
            run: [sh, -c, "touch started; while ! test -f go; do sleep 0.05; done"]
            timeout: 0
            on: {ok: done}
          done: {final: completed}
        """);
    StoreCommands fsm = new StoreCommands(dir, "store");
    FsmProcess runner = FsmProcess.start(dir, "run", "--store", "store").awaitServing();
    processes.add(runner);
    fsm.ok("start", "once", "--id", "p-1");
    Await.until("the charge to start", LIMIT, () -> Files.exists(machines.resolve("started")));
    runner.kill();
    runner.awaitExit(LIMIT);

    FsmProcess idle = FsmProcess.start(dir, "run", "--until-idle", "--store", "store");
    processes.add(idle);
    assertThat(idle.awaitExit(LIMIT)).as(idle.err()).isZero();
    JsonNode task = fsm.json("show", "p-1");
    assertThat(task.get("status").asText()).isEqualTo("fault");
    assertThat(task.get("due").isNull()).isTrue();

    String shown = fsm.ok("show", "p-1").out();
    assertThat(shown).contains("status    fault (parked)\n")
        .contains("parked    waiting for an operator: `fsm send p-1 sleep --until now` to try"
            + " again, or `fsm send p-1 error` to fail it (then `fsm send p-1 redrive --to STATE`"
            + " to run it from a state)\n");
  }

  @Test
  void aTaskParkedInAStateItsVersionLacksIsToldToFailAndRedriveNotToRetry() throws IOException {
    Path machines = Files.createDirectories(dir.resolve("machines"));
    Files.writeString(machines.resolve("job.yaml"), """
        machine: job
        states:
          a:
            on: {go: b}
          b:
            on: {go: done}
          done: {final: completed}
        """);
    StoreCommands fsm = new StoreCommands(dir, "store");
    fsm.ok("start", "job", "--id", "u-1");
    fsm.ok("signal", "u-1", "go");
    Files.writeString(machines.resolve("job.yaml"), """
        machine: job
        upgrade: upgrade
        states:
          a:
            on: {go: done}
          done: {final: completed}
        """);
    fsm.ok("upgrade", "job");

    String shown = fsm.ok("show", "u-1").out();
    assertThat(shown).contains("status    fault (parked)\n")
        .contains("parked    waiting for an operator: its state is not in its machine version,"
            + " so `fsm send u-1 error` to fail it, then `fsm send u-1 redrive --to STATE` to run"
            + " it from a state that is\n");
    fsm.ok("send", "u-1", "error");
    fsm.ok("send", "u-1", "redrive", "--to", "a");
    assertThat(fsm.ok("show", "u-1").out()).contains("state     a\n");
  }
}

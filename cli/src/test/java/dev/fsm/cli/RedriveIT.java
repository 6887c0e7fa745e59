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
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fsm send ID redrive} on the real jar: locally, in bulk, and to a serving runner. */
class RedriveIT {

  @TempDir Path dir;

  private final List<FsmProcess> processes = new ArrayList<>();

  @BeforeEach
  void machines() throws IOException {
    Files.createDirectories(dir.resolve("machines"));
    // charge fails while machines/db-down exists (one error fails it) and is declined while
    // machines/decline exists; programs run in the machine file's folder.
    Files.writeString(dir.resolve("machines/payment.yaml"), """
        machine: payment
        states:
          charge:
            run: [sh, -c, "if test -f db-down; then echo 'db down' >&2; exit 1; fi; \
        if test -f decline; then echo '{\\"event\\": \\"declined\\"}'; fi"]
            retry: {max_errors: 1, window: 1h, backoff: 1s}
            on: {ok: notify, declined: refused}
          notify:
            run: builtin:noop
            on: {ok: done}
          done: {final: completed}
          refused: {final: failed}
        """);
  }

  @AfterEach
  void stopProcesses() {
    processes.forEach(FsmProcess::close);
  }

  private StoreCommands fsm() {
    return new StoreCommands(dir, "store");
  }

  private String status(String id) throws IOException {
    JsonNode task = fsm().json("show", id);
    return task.get("state").asText() + " " + task.get("status").asText();
  }

  @Test
  void aTaskThatFailedByItsPolicyIsRedrivenAndCompletesWithTheRedriveInItsHistory()
      throws IOException {
    Files.createFile(dir.resolve("machines/db-down"));
    fsm().ok("start", "payment", "--id", "p-1");
    fsm().ok("run", "--until-idle");
    assertThat(status("p-1")).isEqualTo("charge failed");

    Files.delete(dir.resolve("machines/db-down"));
    assertThat(fsm().ok("send", "p-1", "redrive", "--reason", "db back").out())
        .isEqualTo("p-1: redrive sent; failed -> runnable\n");
    JsonNode shown = fsm().json("show", "p-1");
    assertThat(shown.get("errors").size()).isZero();
    assertThat(shown.get("attempt").asInt()).isZero();
    fsm().ok("run", "--until-idle");
    assertThat(status("p-1")).isEqualTo("done completed");

    String history = fsm().ok("history", "p-1").out();
    assertThat(history).containsPattern("charge +redrive +charge +1 +user:\\S+ +db back\n");
    JsonNode entries = fsm().json("history", "p-1");
    assertThat(entries.get(0).get("event").asText()).isEqualTo("error");
    assertThat(entries.get(1).get("event").asText()).isEqualTo("redrive");
    assertThat(entries.get(1).get("reason").asText()).isEqualTo("db back");
    assertThat(entries.get(2).get("event").asText()).isEqualTo("ok");

    FsmJar.Result again = fsm().run("send", "p-1", "redrive");
    assertThat(again.exit()).isEqualTo(1);
    assertThat(again.err()).isEqualTo("fsm: task `p-1`: `redrive` is not allowed: the task is"
        + " completed, which is final; no command changes it\n");
  }

  @Test
  void bulkRedriveCountsOnADryRunThenChangesTheFailedTasks() throws IOException {
    Files.createFile(dir.resolve("machines/db-down"));
    fsm().jsonEach(List.of("start", "payment", "--id", "b-1"),
        List.of("start", "payment", "--id", "b-2"), List.of("start", "payment", "--id", "b-3"));
    fsm().ok("run", "--until-idle");
    fsm().ok("start", "payment", "--id", "b-4");

    assertThat(fsm().ok("send", "--machine", "payment", "--status", "failed", "redrive",
        "--dry-run").out()).isEqualTo("redrive (dry run): 3 tasks matched, 3 would change,"
            + " 0 refused\n");
    assertThat(status("b-1")).isEqualTo("charge failed");

    FsmJar.Result all = fsm().run("send", "--machine", "payment", "redrive", "--reason",
        "db back");
    assertThat(all.exit()).isEqualTo(1);
    assertThat(all.out()).startsWith("redrive: 4 tasks matched, 3 changed, 1 refused\n"
        + "  refused task `b-4`: `redrive` is not allowed while the task is runnable;");
    assertThat(all.err()).isEqualTo("fsm: redrive was refused by 1 task\n");

    Files.delete(dir.resolve("machines/db-down"));
    fsm().ok("run", "--until-idle");
    List<String> ids = List.of("b-1", "b-2", "b-3", "b-4");
    List<JsonNode> shown = fsm().jsonEach(ids.stream().map(id -> List.of("show", id)).toList());
    for (int i = 0; i < ids.size(); i++) {
      assertThat(shown.get(i).get("state").asText() + " " + shown.get(i).get("status").asText())
          .as(ids.get(i)).isEqualTo("done completed");
    }
  }

  @Test
  void aServingRunnerPicksUpATaskRedrivenFromAFinalStateOrToAnotherState() throws IOException {
    Files.createFile(dir.resolve("machines/decline"));
    FsmProcess runner = FsmProcess.start(dir, "run", "--store", "store").awaitServing();
    processes.add(runner);
    fsm().ok("start", "payment", "--id", "s-1");
    Await.until("s-1 to be declined", Duration.ofSeconds(30),
        () -> fsm().ok("ls", "--status", "failed").out().contains("s-1"));
    assertThat(status("s-1")).isEqualTo("refused failed");

    FsmJar.Result bad = fsm().run("send", "s-1", "redrive", "--to", "shipping");
    assertThat(bad.exit()).isEqualTo(1);
    assertThat(bad.err()).matches("fsm: task `s-1`: `shipping` is not a state of machine"
        + " `payment` version [0-9a-f]+; give --to one of: charge, notify\n");
    FsmJar.Result ended = fsm().run("send", "s-1", "redrive", "--to", "done");
    assertThat(ended.err()).isEqualTo("fsm: task `s-1`: `done` is a final state, where a task"
        + " cannot run; give --to one of: charge, notify\n");
    assertThat(status("s-1")).isEqualTo("refused failed");

    Files.delete(dir.resolve("machines/decline"));
    assertThat(fsm().ok("send", "s-1", "redrive", "--reason", "limit raised").out())
        .isEqualTo("s-1: redrive sent; failed -> runnable\n");
    Await.until("redriven s-1 to complete", Duration.ofSeconds(30),
        () -> fsm().ok("ls", "--status", "completed").out().contains("s-1"));
    assertThat(fsm().ok("history", "s-1").out())
        .containsPattern("refused +redrive +charge +0 +user:\\S+ +limit raised\n");

    fsm().jsonEach(List.of("start", "payment", "--id", "s-2", "--at", "1h"),
        List.of("send", "s-2", "kill"));
    assertThat(fsm().ok("send", "s-2", "redrive", "--to", "notify").out())
        .isEqualTo("s-2: redrive sent; killed -> runnable\n");
    Await.until("s-2 to complete from notify", Duration.ofSeconds(30),
        () -> fsm().ok("ls", "--status", "completed").out().contains("s-2"));
    JsonNode history = fsm().json("history", "s-2");
    assertThat(history.get(1).get("from").asText()).isEqualTo("charge");
    assertThat(history.get(1).get("event").asText()).isEqualTo("redrive");
    assertThat(history.get(1).get("to").asText()).isEqualTo("notify");

    fsm().jsonEach(List.of("start", "payment", "--id", "s-3", "--at", "1h"),
        List.of("send", "s-3", "pause"));
    assertThat(fsm().ok("send", "s-3", "resume").out())
        .isEqualTo("s-3: resume sent; paused -> runnable\n");
    Await.until("resumed s-3 to complete", Duration.ofSeconds(30),
        () -> fsm().ok("ls", "--status", "completed").out().contains("s-3"));
  }
}

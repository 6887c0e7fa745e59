package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code concurrency:} and {@code breaker:} through the real jar: programs log when they start
 * and end, so the overlap the runner allowed is read from the log; a breaker opens on a failing
 * program, shows in {@code machines} and {@code stats} while the runner owns the store, holds
 * across a runner restart, and closes once the program is fixed.
 */
class LimitsIT {

  /** Logs start and end with a nanosecond clock; the work itself takes a moment. */
  private static final String WORK = """
      #!/bin/sh
      cat >/dev/null
      echo "$(date +%s%N) $FSM_MACHINE/$FSM_STATE start" >> events.log
      sleep 0.2
      echo "$(date +%s%N) $FSM_MACHINE/$FSM_STATE end" >> events.log
      """;

  /** Fails while the file `broken` exists beside it, and counts its runs. */
  private static final String FLAKY = """
      #!/bin/sh
      cat >/dev/null
      echo run >> flaky-runs.txt
      if [ -e broken ]; then echo "upstream down" >&2; exit 1; fi
      """;

  @TempDir Path dir;

  @Test
  void aMachineCapAndAStateCapAreNeverExceededByFourWorkers() throws IOException {
    write("machines/cap.yaml", """
        machine: cap
        concurrency: 2
        states:
          work: {run: scripts/work.sh, on: {ok: done}}
          done: {final: completed}
        """);
    write("machines/staged.yaml", """
        machine: staged
        states:
          one: {run: scripts/work.sh, concurrency: 1, on: {ok: two}}
          two: {run: scripts/work.sh, on: {ok: done}}
          done: {final: completed}
        """);
    executable("machines/scripts/work.sh", WORK);
    assertThat(FsmJar.run(dir, "validate").exit()).isZero();
    List<List<String>> starts = new ArrayList<>();
    for (int i = 0; i < 6; i++) {
      starts.add(List.of("start", "cap"));
      starts.add(List.of("start", "staged"));
    }
    new StoreCommands(dir, "store").jsonEach(starts);
    FsmJar.Result run = ok("run", "--workers", "4", "--until-idle");
    assertThat(run.err()).contains("0 errors");
    Map<String, Integer> most = mostAtOnce(Files.readAllLines(dir.resolve("machines/events.log")));
    assertThat(most.get("cap")).as("machine cap").isEqualTo(2);
    assertThat(most.get("staged/one")).as("state cap").isEqualTo(1);
    assertThat(most.get("all")).as("four workers in all").isLessThanOrEqualTo(4);
    JsonNode tasks = json("ls");
    for (JsonNode t : tasks) {
      assertThat(t.get("status").asText()).isEqualTo("completed");
    }
    assertThat(tasks).hasSize(12);
  }

  @Test
  void aCapOfOneWithFourWorkersRunsOneAtATime() throws IOException {
    write("machines/one.yaml", """
        machine: one
        concurrency: 1
        states:
          work: {run: scripts/work.sh, on: {ok: done}}
          done: {final: completed}
        """);
    executable("machines/scripts/work.sh", WORK);
    new StoreCommands(dir, "store").jsonEach(Collections.nCopies(4, List.of("start", "one")));
    ok("run", "--workers", "4", "--until-idle");
    List<String> events = Files.readAllLines(dir.resolve("machines/events.log"));
    assertThat(events).hasSize(8);
    assertThat(mostAtOnce(events).get("one")).isEqualTo(1);
  }

  @Test
  void aBreakerOpensOnErrorsIsShownHoldsAcrossARestartAndClosesOnceFixed() throws IOException {
    write("machines/flaky.yaml", """
        machine: flaky
        breaker: {errors: 50%, min_attempts: 3, window: 1m, cooldown: 2s}
        states:
          call:
            run: scripts/flaky.sh
            retry: {max_errors: 50, window: 1h, backoff: 50ms}
            on: {ok: done}
          done: {final: completed}
        """);
    executable("machines/scripts/flaky.sh", FLAKY);
    write("machines/broken", "");
    new StoreCommands(dir, "store").jsonEach(Collections.nCopies(3, List.of("start", "flaky")));
    // Before any runner: the machine has a breaker, and nothing opened it.
    assertThat(ok("machines").out()).contains("breaker of `flaky`: closed");
    try (FsmProcess runner = FsmProcess.start(dir, "run", "--workers", "2", "--store",
        "store")) {
      runner.awaitServing();
      awaitErr(runner, "breaker of machine `flaky` opened: 100% of the last 3 attempts were"
          + " errors; no attempt of it starts until ");
      // Asked of the runner over its socket.
      assertThat(ok("machines").out()).containsPattern(
          "breaker of `flaky`: (open until .* \\(100% of 3 attempts\\)|half-open: probing)");
      assertThat(ok("stats", "flaky").out()).contains("breaker of `flaky`: ");
      List<JsonNode> open = new StoreCommands(dir, "store").jsonEach(List.of(
          List.of("machines"), List.of("stats", "flaky"), List.of("ls")));
      JsonNode shown = open.get(0).get(0).get("breaker");
      assertThat(shown.get("state").asText()).isIn("open", "half-open");
      assertThat(shown.get("attempts").asInt()).isEqualTo(3);
      assertThat(shown.get("error_rate").asDouble()).isEqualTo(1.0);
      assertThat(open.get(1).get(0).get("breaker").get("state").asText())
          .isIn("open", "half-open");
      // The waiting tasks are not errors: no task failed, none holds more than its errors.
      for (JsonNode t : open.get(2)) {
        assertThat(t.get("status").asText()).isIn("runnable", "sleeping");
      }
      runner.terminate();
      assertThat(runner.awaitExit(Duration.ofSeconds(30))).isZero();
    }
    try (FsmProcess again = FsmProcess.start(dir, "run", "--workers", "2", "--store",
        "store")) {
      again.awaitServing();
      // Restarted while open: it reads the recent attempts and stays open.
      awaitErr(again, "breaker of machine `flaky` opened");
      Files.delete(dir.resolve("machines/broken"));
      awaitErr(again, "breaker of machine `flaky` closed: the probe attempt succeeded; its tasks"
          + " start again");
      Await.until("every task to complete", Duration.ofSeconds(30), () -> {
        try {
          for (JsonNode t : json("ls")) {
            if (!t.get("status").asText().equals("completed")) {
              return false;
            }
          }
          return true;
        } catch (IOException e) {
          throw new AssertionError(e);
        }
      });
      assertThat(ok("machines").out()).contains("breaker of `flaky`: closed");
      again.terminate();
      assertThat(again.awaitExit(Duration.ofSeconds(30))).isZero();
    }
    // Every run of the program is one attempt in a history, and nothing else is: waiting
    // behind the open breaker spent no retry and recorded no error.
    int attempts = 0;
    List<List<String>> histories = new ArrayList<>();
    for (JsonNode t : json("ls")) {
      histories.add(List.of("history", t.get("id").asText()));
    }
    for (JsonNode history : new StoreCommands(dir, "store").jsonEach(histories)) {
      for (JsonNode e : history) {
        String event = e.get("event").asText();
        attempts += event.equals("error") || event.equals("ok") ? 1 : 0;
      }
    }
    assertThat(Files.readAllLines(dir.resolve("machines/flaky-runs.txt"))).hasSize(attempts);
  }

  @Test
  void badLimitsAreRefusedByValidateWithTheirPlace() throws IOException {
    write("bad.yaml", """
        machine: bad
        concurrency: 0
        breaker: {errors: 150%}
        defaults: {concurrency: 2}
        states:
          a: {run: builtin:noop, concurrency: 5, on: {ok: b}}
          b: {final: completed}
        """);
    FsmJar.Result r = FsmJar.run(dir, "validate", "bad.yaml");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.outLines()).containsExactly(
        "bad.yaml:2:14: error: `concurrency` at the top level must be a whole number from 1 to"
            + " 100000, found `0` (for example `concurrency: 4`)",
        "bad.yaml:3:19: error: `errors` in `breaker` must be a percentage above 0% and at most"
            + " 100%, found `150%` (for example `errors: 50%`)",
        "bad.yaml:4:12: error: `concurrency` is not inherited through `defaults` (set it on the"
            + " machine (all its attempts) or on a state (that state's attempts))");
  }

  /** The most attempts running at once, per machine, per machine/state and in "all". */
  private static Map<String, Integer> mostAtOnce(List<String> events) {
    List<String[]> sorted = new ArrayList<>();
    for (String e : events) {
      sorted.add(e.split(" "));
    }
    // By time; at the same nanosecond an end first, so touching attempts do not overlap.
    sorted.sort((a, b) -> {
      int c = Long.compare(Long.parseLong(a[0]), Long.parseLong(b[0]));
      return c != 0 ? c : a[2].compareTo(b[2]);
    });
    Map<String, Integer> now = new HashMap<>();
    Map<String, Integer> most = new HashMap<>();
    for (String[] e : sorted) {
      int step = e[2].equals("start") ? 1 : -1;
      String machine = e[1].substring(0, e[1].indexOf('/'));
      for (String key : List.of(e[1], machine, "all")) {
        int n = now.merge(key, step, Integer::sum);
        most.merge(key, n, Math::max);
      }
    }
    return most;
  }

  private void awaitErr(FsmProcess p, String text) {
    Await.until("stderr to show: " + text + "; it shows: " + p.err(), Duration.ofSeconds(40),
        () -> p.err().contains(text));
  }

  private void executable(String name, String text) throws IOException {
    write(name, text);
    Files.setPosixFilePermissions(dir.resolve(name), PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private void write(String name, String text) throws IOException {
    Path file = dir.resolve(name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  private FsmJar.Result ok(String... args) {
    return new StoreCommands(dir, "store").ok(args);
  }

  private JsonNode json(String... args) throws IOException {
    return new StoreCommands(dir, "store").json(args);
  }
}

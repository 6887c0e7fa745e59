package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code fsm runners} and the runners in {@code fsm watch}'s header, on the real jar: a store
 * with no runner says so, a running {@code fsm run} is listed with its pid and workers, a
 * clean stop shows as stopped and a {@code kill -9} as gone once its heartbeats stop.
 */
@Isolated("asserts on time")
class RunnersIT {

  /** A runner not seen for three 2 s heartbeats is gone; slack for a busy 2-core machine. */
  private static final Duration GONE_WITHIN = Duration.ofSeconds(30);

  @TempDir Path dir;

  private final List<FsmProcess> background = new ArrayList<>();

  @BeforeEach
  void machines() throws IOException {
    Files.createDirectories(dir.resolve("machines/scripts"));
    Files.writeString(dir.resolve("machines/nap.yaml"), """
        machine: nap
        states:
          nap:
            run: scripts/nap.sh
            on: {ok: done}
          done: {final: completed}
        """);
    // Records its pid, then naps until the file `wake` exists (at most 60 s).
    Path script = dir.resolve("machines/scripts/nap.sh");
    Files.writeString(script, """
        #!/bin/sh
        cat >/dev/null
        echo $$ > "$FSM_TASK_ID.pid"
        i=0
        while [ ! -e wake ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
        """);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  @AfterEach
  void stopLeftovers() throws IOException {
    background.forEach(FsmProcess::close);
    Files.writeString(dir.resolve("machines/wake"), "");
    try (Stream<Path> files = Files.list(dir.resolve("machines"))) {
      for (Path pidFile : files.filter(f -> f.toString().endsWith(".pid")).toList()) {
        String pid = Files.readString(pidFile).strip();
        if (!pid.isEmpty()) {
          ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
        }
      }
    }
  }

  @Test
  void aStoreWithNoRunnerSaysSoAndAMissingStoreIsRefused() throws IOException {
    FsmJar.Result missing = fsm("runners");
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err()).contains("no fsm store").doesNotContain("Exception");

    ok("start", "nap");
    FsmJar.Result none = ok("runners");
    assertThat(none.out()).isEqualTo("no runner serves this store\n");
    JsonNode json = json("runners");
    assertThat(json.get("live").asInt()).isZero();
    assertThat(json.get("runners")).isEmpty();
    assertThat(json.get("time").asText()).endsWith("Z");
    assertThat(ok("watch", "-n", "1").out()).contains("no runner").contains("1 runnable");
  }

  @Test
  void aRunningRunnerIsListedAndWatchedAndItsCleanStopShows() throws IOException {
    ok("start", "nap");
    assertThat(ok("watch", "-n", "1").out()).contains("no runner");
    FsmProcess runner = runInBackground("run", "--workers", "3");
    JsonNode row = awaitRunner(runner.pid(), "running", r -> r.get("held").asInt() == 1);
    assertThat(row.get("id").asText()).isEqualTo("runner:" + runner.pid() + "@"
        + row.get("host").asText());
    assertThat(row.get("workers").asInt()).isEqualTo(3);
    assertThat(row.get("machines")).isEmpty();
    assertThat(row.get("rate").isNumber()).isTrue();
    assertThat(row.get("seen_seconds_ago").asLong()).isBetween(0L, 6L);
    List<String> keys = new ArrayList<>();
    row.fieldNames().forEachRemaining(keys::add);
    assertThat(keys).containsExactly("id", "host", "pid", "workers", "machines", "started",
        "seen", "seen_seconds_ago", "held", "rate", "status");

    FsmJar.Result text = ok("runners");
    assertThat(text.out()).containsPattern(
        "ID +HOST +PID +WORKERS +STARTED +SEEN +HELD +RATE +STATUS\n")
        .containsPattern("runner:" + runner.pid() + "@\\S+ +\\S+ +" + runner.pid()
            + " +3 +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d +(now|\\d+s ago) +1 +\\d+\\.\\d"
            + " +running\n")
        .endsWith("1 runner serves this store\n");
    assertThat(ok("watch", "-n", "1").out())
        .contains("runners: 1 (" + row.get("id").asText() + " 3 workers)");
    JsonNode frame = json("watch", "-n", "1");
    assertThat(frame.get("runners").get(0).get("pid").asLong()).isEqualTo(runner.pid());

    Files.writeString(dir.resolve("machines/wake"), "");
    runner.terminate();
    assertThat(runner.awaitExit(Duration.ofSeconds(60))).isZero();
    JsonNode stopped = only(json("runners"));
    assertThat(stopped.get("status").asText()).isEqualTo("stopped");
    assertThat(stopped.get("held").asInt()).isZero();
    assertThat(ok("runners").out()).containsPattern(" stopped\n")
        .endsWith("no runner serves this store\n");
    assertThat(ok("watch", "-n", "1").out()).contains("no runner");
  }

  @Test
  void aKilledRunnerTurnsGoneAndOnlyTheRunnersOfSomeMachinesShowThem() throws IOException {
    ok("start", "nap");
    FsmProcess runner = runInBackground("run", "--workers", "2", "--machine", "nap");
    JsonNode row = awaitRunner(runner.pid(), "running", r -> r.get("held").asInt() == 1);
    assertThat(row.get("machines").toString()).isEqualTo("[\"nap\"]");
    assertThat(ok("runners").out()).containsPattern("MACHINES\n").containsPattern(" nap\n");

    runner.kill();
    runner.awaitExit(Duration.ofSeconds(30));
    if (endsWithItsOwner()) {
      // The next process to open the store owns it: the killed runner cannot be running.
      assertThat(status(runner.pid())).isEqualTo("gone");
    }
    Duration took = Await.until("runner " + runner.pid() + " to show as gone", GONE_WITHIN,
        () -> status(runner.pid()).equals("gone"));
    assertThat(took).isLessThan(GONE_WITHIN);
    assertThat(ok("runners").out()).containsPattern(" - +- +gone ")
        .endsWith("no runner serves this store\n");
    assertThat(json("runners").get("live").asInt()).isZero();
  }

  /** The store the test runs on, as --store names it; a subclass runs the tests on another. */
  String store() {
    return "store";
  }

  /**
   * Whether a killed runner shows as gone at once: for the embedded store, which one process
   * owns at a time; a shared store waits three heartbeats.
   */
  boolean endsWithItsOwner() {
    return true;
  }

  JsonNode awaitRunner(long pid, String status,
      java.util.function.Predicate<JsonNode> also) {
    JsonNode[] found = new JsonNode[1];
    Await.until("runner " + pid + " listed as " + status, Duration.ofSeconds(30), () -> {
      for (JsonNode r : runners()) {
        if (r.get("pid").asLong() == pid && r.get("status").asText().equals(status)
            && also.test(r)) {
          found[0] = r;
          return true;
        }
      }
      return false;
    });
    return found[0];
  }

  String status(long pid) {
    for (JsonNode r : runners()) {
      if (r.get("pid").asLong() == pid) {
        return r.get("status").asText();
      }
    }
    return "absent";
  }

  private JsonNode runners() {
    try {
      return json("runners").get("runners");
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private static JsonNode only(JsonNode report) {
    assertThat(report.get("runners")).hasSize(1);
    return report.get("runners").get(0);
  }

  FsmProcess runInBackground(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--store", store()));
    FsmProcess p = FsmProcess.start(dir, all.toArray(String[]::new));
    background.add(p);
    return p.awaitServing();
  }

  private FsmJar.Result fsm(String... args) {
    return new StoreCommands(dir, store()).run(args);
  }

  FsmJar.Result ok(String... args) {
    return new StoreCommands(dir, store()).ok(args);
  }

  JsonNode json(String... args) throws IOException {
    return new StoreCommands(dir, store()).json(args);
  }
}

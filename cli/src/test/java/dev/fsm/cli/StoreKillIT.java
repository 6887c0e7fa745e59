package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * kill -9 in the middle of the store's long operations (issue 15): a forced rebuild, and a bulk
 * command over thousands of tasks with no runner, with the command's client killed while a
 * runner applies it, and with the runner killed under the client. After each, the store opens,
 * {@code fsm store check} passes, nothing the store had acknowledged is lost, every task holds
 * either all of the command or none of it, and sending the command again to what is left
 * finishes the job.
 */
class StoreKillIT {

  private static final int TASKS = 3000;
  private static final Duration BOUND = Duration.ofSeconds(60);

  @TempDir Path dir;
  private StoreCommands fsm;

  @BeforeEach
  void startTasks() throws IOException {
    Files.createDirectories(dir.resolve("machines"));
    // A task waits an hour in `hold`: runnable but not due, so a runner leaves it alone.
    Files.writeString(dir.resolve("machines/bulk.yaml"), """
        machine: bulk
        initial: hold
        states:
          hold:
            wait: 1h
            on: {ok: done}
          done: {final: completed}
        """);
    Files.writeString(dir.resolve("tasks.jsonl"), "{}\n".repeat(TASKS));
    fsm = new StoreCommands(dir, "store");
    fsm.ok("start", "bulk", "--from", "tasks.jsonl");
  }

  @Test
  void aRebuildKilledAtAnyMomentLeavesEveryTaskAndAnIndexThatMatches() {
    long full = System.nanoTime();
    FsmJar.Result whole = fsm.ok("store", "rebuild");
    long fullMillis = Duration.ofNanos(System.nanoTime() - full).toMillis();
    assertThat(whole.out()).startsWith("index: rebuilt from the journal because a rebuild was"
        + " asked for: ");
    // From before the store is opened to the end of the rebuild: spread over one whole run.
    List<Long> delays = new ArrayList<>();
    for (int kill = 1; kill <= 5; kill++) {
      long delay = fullMillis * kill / 6;
      delays.add(delay);
      try (FsmProcess rebuild = FsmProcess.start(dir, "store", "rebuild", "--store", "store")) {
        pause(delay);
        rebuild.kill();
        assertThat(rebuild.awaitExit(BOUND)).as("killed %d ms in", delay).isIn(0, 137);
      }
    }
    assertThat(fsm.ok("store", "check").out()).as("after kills at %s ms of %d ms", delays,
        fullMillis).contains("index matches the journal");
    assertThat(counts()).isEqualTo(Map.of("runnable", TASKS));
    assertThat(wholeTasks()).isEqualTo(Map.of("runnable", TASKS));
    assertThat(leftovers()).as("spill and temporary files of killed rebuilds").isEmpty();
  }

  @Test
  void aBulkPauseKilledMidwayKeepsEachTaskWholeAndCanBeFinished() {
    long before = journalBytes();
    try (FsmProcess send = FsmProcess.start(dir, "send", "--machine", "bulk", "pause",
        "--store", "store")) {
      awaitChanges(before, send);
      send.kill();
      assertThat(send.awaitExit(BOUND)).isEqualTo(137);
    }
    int paused = wholeTasks().getOrDefault("paused", 0);
    assertThat(paused).as("tasks paused before the kill").isBetween(1, TASKS - 1);
    assertThat(fsm.ok("store", "check").out()).contains("index matches the journal");

    FsmJar.Result rest = fsm.ok("send", "--machine", "bulk", "--status", "runnable", "pause");
    assertThat(rest.out().strip()).isEqualTo("pause: " + (TASKS - paused) + " tasks matched, "
        + (TASKS - paused) + " changed, 0 refused");
    assertThat(wholeTasks()).isEqualTo(Map.of("paused", TASKS));
  }

  @Test
  void withARunnerABulkCommandSurvivesTheKillOfItsClientAndOfTheRunner() {
    try (FsmProcess runner = FsmProcess.start(dir, "run", "--workers", "2", "--store",
        "store").awaitServing()) {
      long before = journalBytes();
      try (FsmProcess send = FsmProcess.start(dir, "send", "--machine", "bulk", "pause",
          "--store", "store")) {
        awaitChanges(before, send);
        send.kill();
        assertThat(send.awaitExit(BOUND)).isEqualTo(137);
      }
      // The runner applies a request whole, whether or not its client is still there.
      Await.until("the runner to pause every task", BOUND,
          () -> counts().equals(Map.of("paused", TASKS)));

      before = journalBytes();
      try (FsmProcess send = FsmProcess.start(dir, "send", "--machine", "bulk", "sleep",
          "--until", "2h", "--store", "store")) {
        awaitChanges(before, send);
        runner.kill();
        assertThat(runner.awaitExit(BOUND)).isEqualTo(137);
        assertThat(send.awaitExit(BOUND)).as(send.err()).isEqualTo(1);
        assertThat(send.err().strip()).isEqualTo("fsm: runner pid " + runner.pid() + " hung up"
            + " before answering; it may be stopping; whether the request took effect is"
            + " unknown: check, then try again");
      }
    }
    Map<String, Integer> split = wholeTasks();
    assertThat(split.getOrDefault("sleeping", 0)).as("tasks asleep before the runner's kill")
        .isBetween(1, TASKS - 1);
    assertThat(fsm.ok("store", "check").out()).contains("index matches the journal");
    fsm.ok("send", "--machine", "bulk", "--status", "paused", "sleep", "--until", "2h");
    assertThat(wholeTasks()).isEqualTo(Map.of("sleeping", TASKS));
  }

  /**
   * Tasks by status, read from the closed store, checking that each holds the whole of every
   * command it shows: a runnable task has no history, a paused one a pause, a sleeping one a
   * pause and then a sleep.
   */
  private Map<String, Integer> wholeTasks() {
    Map<String, List<String>> expected = Map.of("runnable", List.of(), "paused",
        List.of("pause"), "sleeping", List.of("pause", "sleep"));
    Map<String, Integer> counts = new TreeMap<>();
    List<String> problems = new ArrayList<>();
    Histories.read(dir.resolve("store")).forEach((id, e) -> {
      String status = e.task().status().word();
      counts.merge(status, 1, Integer::sum);
      List<String> events = e.history().stream().map(Transition::event).toList();
      if (!events.equals(expected.get(status)) || !e.task().state().equals("hold")) {
        problems.add(id + " is " + status + " in " + e.task().state() + " with history "
            + events);
      }
    });
    assertThat(problems).isEmpty();
    assertThat(counts.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(TASKS);
    return counts;
  }

  /** Tasks in `hold` by status, asked of the store (or its runner) as a user would. */
  private Map<String, Integer> counts() {
    try {
      Map<String, Integer> counts = new TreeMap<>();
      for (JsonNode state : fsm.json("stats", "bulk")) {
        if (state.get("state").asText().equals("hold")) {
          state.get("counts").fields().forEachRemaining(f -> {
            if (f.getValue().asInt() > 0) {
              counts.put(f.getKey(), f.getValue().asInt());
            }
          });
        }
      }
      return counts;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits until the journal holds a few dozen changes more than {@code before}. */
  private void awaitChanges(long before, FsmProcess sender) {
    Await.until("the bulk command to change some tasks; stderr: " + sender.err(), BOUND,
        () -> journalBytes() > before + 8 * 1024 || !sender.alive());
    assertThat(sender.alive()).as("the bulk command finished before the kill: %s",
        sender.out()).isTrue();
  }

  private long journalBytes() {
    try (Stream<Path> files = Files.list(dir.resolve("store/journal"))) {
      long total = 0;
      for (Path f : files.toList()) {
        total += Files.size(f);
      }
      return total;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private List<String> leftovers() {
    try (Stream<Path> files = Files.list(dir.resolve("store"))) {
      return files.map(f -> f.getFileName().toString())
          .filter(n -> n.endsWith(".spill") || n.endsWith(".tmp")).toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The moment of a kill: the point of the test, not a wait for a condition. */
  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}

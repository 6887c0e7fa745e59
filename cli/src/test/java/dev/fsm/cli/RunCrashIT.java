package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recovery proof: a runner SIGKILLed at random moments, again and again, loses nothing and
 * doubles nothing. Every task ends completed, with a history that goes exactly along the
 * machine's path, and no lease is left behind. Run with {@code -Dfsm.crash.seed=N} to replay.
 */
class RunCrashIT {

  private static final int TASKS = 200;
  private static final int KILLS = 6;
  private static final List<String> PATH = List.of("begin", "work", "cool", "finish", "done");

  @TempDir Path dir;

  @Test
  void aRunnerKilledAtRandomMomentsLosesAndDoublesNothing() throws IOException {
    long seed = Long.getLong("fsm.crash.seed", System.nanoTime());
    try {
      killAndRecover(seed);
    } catch (AssertionError | RuntimeException e) {
      throw new AssertionError("RunCrashIT failed with -Dfsm.crash.seed=" + seed + ": "
          + e.getMessage(), e);
    }
  }

  private void killAndRecover(long seed) throws IOException {
    Random random = new Random(seed);
    Files.createDirectories(dir.resolve("machines/scripts"));
    Files.writeString(dir.resolve("machines/crash.yaml"), """
        machine: crash
        states:
          begin:
            run: builtin:noop
            on: {ok: work}
          work:
            run: scripts/tiny.sh
            on: {ok: cool}
          cool:
            wait: 50ms
            on: {ok: finish}
          finish:
            run: builtin:noop
            on: {ok: done}
          done: {final: completed}
        """);
    Path script = dir.resolve("machines/scripts/tiny.sh");
    // 0.2 s each, so the work (10 s on 4 workers) outlasts the kills (at most 6 x 1.5 s).
    Files.writeString(script, """
        #!/bin/sh
        cat >/dev/null
        sleep 0.2
        echo '{"event": "ok", "context": {"worked": true}}'
        """);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(dir.resolve("tasks.jsonl"), "{}\n".repeat(TASKS));
    FsmJar.Result started = FsmJar.run(dir, "start", "crash", "--from", "tasks.jsonl",
        "--store", "store");
    assertThat(started.exit()).as(started.err()).isZero();

    int seen = 0;
    List<Long> delays = new ArrayList<>();
    List<Long> restarts = new ArrayList<>();
    for (int kill = 0; kill < KILLS; kill++) {
      try (FsmProcess runner = FsmProcess.start(dir, "run", "--workers", "4", "-v",
          "--store", "store")) {
        // Reopening the store after a kill (journal recovery) until the first new transition.
        Duration restart = Await.until("runner " + kill + " to record a transition",
            Duration.ofSeconds(20), () -> !runner.out().isEmpty() || !runner.alive());
        restarts.add(restart.toMillis());
        long delay = 200 + random.nextInt(1300);
        delays.add(delay);
        sleepFor(delay);
        assertThat(runner.alive()).as("runner %d: %s", kill, runner.err()).isTrue();
        runner.kill();
        assertThat(runner.awaitExit(Duration.ofSeconds(10))).isEqualTo(137);
        seen += (int) runner.out().lines().count();
      }
    }

    long recovering = System.nanoTime();
    FsmJar.Result last = FsmJar.run(dir, "run", "--until-idle", "--workers", "4",
        "--store", "store");
    long lastRun = Duration.ofNanos(System.nanoTime() - recovering).toMillis();
    assertThat(last.exit()).as(last.err()).isZero();
    System.out.printf("RunCrashIT (seed %d): %d kills at %s ms after the first transition;"
        + " restarts took %s ms to the first transition; %d transitions printed before the"
        + " last run, which took %d ms and %s",
        seed, KILLS, delays, restarts, seen, lastRun, last.err().lines()
            .filter(l -> l.contains("done:")).findFirst().orElse("?"));
    System.out.println();
    // The kills all came before the work was done, so each one interrupted a working runner.
    assertThat(seen).isLessThan(TASKS * (PATH.size() - 1));

    Map<String, Histories.Entry> tasks = Histories.read(dir.resolve("store"));
    assertThat(tasks).hasSize(TASKS);
    List<String> problems = new ArrayList<>();
    for (Histories.Entry e : tasks.values()) {
      String id = e.task().id();
      if (!e.task().status().word().equals("completed")) {
        problems.add(id + " is " + e.task().status().word() + " in " + e.task().state());
      }
      if (e.task().lease() != null) {
        problems.add(id + " still has a lease: " + e.task().lease());
      }
      Histories.problem(e.history(), PATH).ifPresent(p -> problems.add(id + ": " + p));
    }
    assertThat(problems).isEmpty();
  }

  /** The random moment of the kill: the point of the test, not a wait for a condition. */
  private static void sleepFor(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }
}

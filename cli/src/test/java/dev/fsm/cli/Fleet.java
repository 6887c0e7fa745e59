package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.store.Store;
import dev.fsm.task.TaskStatus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The machines and checks the fleet tests share: a three-state machine and an at-most-once one
 * whose programs log to an {@link ActionLog}, a long one for commands to stop, and what a test
 * watches for after it killed or cut off a runner.
 */
final class Fleet {

  private Fleet() {}

  /**
   * After a test: stops its runners, closes its store and kills the programs its log still
   * shows running; any of them may be absent (null log or store) when the test failed early.
   */
  static void cleanUp(List<FsmProcess> runners, Store store, ActionLog log) {
    runners.forEach(FsmProcess::close);
    if (store != null) {
      store.close();
    }
    if (log != null) {
      log.runs().values().stream().filter(ActionLog.Run::open).forEach(ActionLog::kill);
    }
  }

  /**
   * Whether a history's {@code by} (or a lease's owner) names the runner with process id
   * {@code pid}: {@code runner:PID@HOST/wN}, or with a suffix that makes it unique,
   * {@code runner:PID-…}.
   */
  static boolean byRunner(String by, long pid) {
    String p = "runner:" + pid;
    return by.startsWith(p + "@") || by.startsWith(p + "-");
  }

  /**
   * Writes machines {@code steps} (three states of 100–300 ms each), {@code once} (one
   * at-most-once state of 300–500 ms) and {@code long} (a minute, for commands to stop) into
   * {@code dir/machines}; their programs log to {@code dir/actions.log}.
   */
  static ActionLog machines(Path dir) throws IOException {
    Path machines = dir.resolve("machines");
    Files.createDirectories(machines.resolve("scripts"));
    ActionLog log = new ActionLog(dir.resolve("actions.log"));
    log.writeProgram(machines.resolve("scripts/step.sh"), 100, 200);
    log.writeProgram(machines.resolve("scripts/charge.sh"), 300, 200);
    log.writeProgram(machines.resolve("scripts/long.sh"), 60_000, 1);
    // Fixed timeouts: an adaptive one learnt on an idle moment could cut a step on a busy one.
    Files.writeString(machines.resolve("steps.yaml"), """
        machine: steps
        defaults: {timeout: 30s}
        states:
          one: {run: scripts/step.sh, on: {ok: two}}
          two: {run: scripts/step.sh, on: {ok: three}}
          three: {run: scripts/step.sh, on: {ok: done}}
          done: {final: completed}
        """);
    Files.writeString(machines.resolve("once.yaml"), """
        machine: once
        states:
          charge: {run: scripts/charge.sh, timeout: 0, on: {ok: done}}
          done: {final: completed}
        """);
    Files.writeString(machines.resolve("long.yaml"), """
        machine: long
        states:
          work: {run: scripts/long.sh, timeout: 5m, on: {ok: done}}
          done: {final: completed}
        """);
    return log;
  }

  /**
   * Waits until every program that runner {@code pid} started has ended, by its own end line or
   * because its process is gone, and returns when the test saw each one without an end line
   * gone (epoch nanoseconds, by run id): a bound on when it stopped, for the overlap check.
   * Watched for a second at least, so a program started just before the kill is seen too.
   */
  static Map<Long, Long> awaitProgramsGone(ActionLog log, long pid, Duration limit) {
    Map<Long, Long> gone = new HashMap<>();
    long watchUntil = System.nanoTime() + Duration.ofSeconds(1).toNanos();
    Await.until("the programs of runner " + pid + " to end (a runner's programs must stop"
        + " when it dies or cannot renew its leases)", limit, () -> {
      boolean allEnded = true;
      for (ActionLog.Run r : log.open(pid)) {
        if (gone.containsKey(r.id())) {
          continue;
        }
        if (ActionLog.alive(r)) {
          allEnded = false;
        } else {
          gone.put(r.id(), FleetIT.nanos(Instant.now()));
        }
      }
      return allEnded && System.nanoTime() - watchUntil > 0;
    });
    return gone;
  }

  /**
   * Starts a task of {@code long}, waits for a runner to run its program, sends {@code pause}
   * from a process of its own, and checks that the program was told to stop and the task is
   * paused.
   */
  static void pauseFromAFourthProcessStopsARunningAction(StoreCommands fsm,
      ActionLog log, Store store) {
    fsm.ok("start", "long", "--id", "l-1");
    Await.until("a runner to run l-1's program", Duration.ofSeconds(20),
        () -> log.runs().values().stream().anyMatch(r -> r.task().equals("l-1")));
    ActionLog.Run run = log.runs().values().stream().filter(r -> r.task().equals("l-1"))
        .findFirst().orElseThrow();
    assertThat(fsm.ok("send", "l-1", "pause").out()).contains("runnable -> paused");
    // Bounded for a busy machine; SendLatencyIT measures how fast it really is.
    Await.until("l-1's program to be told to stop", Duration.ofSeconds(10),
        () -> log.runs().get(run.id()).termed());
    Await.until("l-1's program to end", Duration.ofSeconds(10), () -> !ActionLog.alive(run));
    assertThat(store.get("l-1").orElseThrow().status()).isEqualTo(TaskStatus.PAUSED);
  }
}

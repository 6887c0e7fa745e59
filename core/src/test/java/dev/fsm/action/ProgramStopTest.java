package dev.fsm.action;

import static dev.fsm.action.Fixtures.awaitFile;
import static dev.fsm.action.Fixtures.program;
import static dev.fsm.action.Fixtures.running;
import static dev.fsm.action.Fixtures.script;
import static dev.fsm.action.Fixtures.start;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/** Stopping programs, with everything they started, and programs that leave children behind. */
@Isolated("asserts on time")
class ProgramStopTest {

  private static final Duration GRACE = Duration.ofMillis(400);

  @TempDir Path dir;

  private final Actions actions = new Actions(ActionOptions.DEFAULTS.withGrace(GRACE));

  @AfterEach
  void close() throws IOException {
    actions.close();
  }

  private long pid(String file) {
    return Long.parseLong(awaitFile(dir.resolve(file)));
  }

  @Test
  void aStopEndsTheProgramAndItsChildrenPromptly() throws Exception {
    script(dir, "slow.sh", "sleep 300 & echo $! > child\necho $$ > pid\nwait");
    Attempt attempt = new Attempt();
    CompletableFuture<ActionOutcome> outcome = start(actions, program(dir, "./slow.sh"), attempt);
    long main = pid("pid");
    long child = pid("child");

    long before = System.nanoTime();
    attempt.stop(Attempt.StopReason.COMMAND);
    assertThat(outcome.get(5, TimeUnit.SECONDS))
        .isEqualTo(new ActionOutcome.Stopped(Attempt.StopReason.COMMAND));
    assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(GRACE);
    assertThat(running(main)).isFalse();
    assertThat(running(child)).isFalse();
  }

  @Test
  void aProgramIgnoringSigtermIsKilledAfterTheGracePeriod() throws Exception {
    script(dir, "stubborn.sh", "trap '' TERM\necho $$ > pid\nwhile :; do sleep 0.05; done");
    Attempt attempt = new Attempt();
    CompletableFuture<ActionOutcome> outcome =
        start(actions, program(dir, "./stubborn.sh"), attempt);
    long main = pid("pid");

    long before = System.nanoTime();
    attempt.stop(Attempt.StopReason.TIMEOUT);
    assertThat(outcome.get(5, TimeUnit.SECONDS))
        .isEqualTo(new ActionOutcome.Stopped(Attempt.StopReason.TIMEOUT));
    assertThat(Duration.ofNanos(System.nanoTime() - before))
        .isBetween(GRACE, GRACE.plusSeconds(2));
    assertThat(running(main)).isFalse();
  }

  @Test
  void aHurriedStopKillsAProgramIgnoringSigtermWithoutWaitingOutTheGrace() throws Exception {
    script(dir, "stubborn.sh", "trap '' TERM\necho $$ > pid\nwhile :; do sleep 0.05; done");
    Attempt attempt = new Attempt();
    CompletableFuture<ActionOutcome> outcome =
        start(actions, program(dir, "./stubborn.sh"), attempt);
    long main = pid("pid");
    attempt.stop(Attempt.StopReason.SHUTDOWN);

    long before = System.nanoTime();
    attempt.hurry(Attempt.StopReason.SHUTDOWN);
    assertThat(outcome.get(5, TimeUnit.SECONDS))
        .isEqualTo(new ActionOutcome.Stopped(Attempt.StopReason.SHUTDOWN));
    assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(GRACE);
    assertThat(running(main)).isFalse();
  }

  @Test
  void orphansOfADoubleForkAndChildrenInTheirOwnSessionAreStoppedToo() throws Exception {
    script(dir, "forks.sh", "(sleep 300 & echo $! > orphan) &\n"
        + "wait\n"
        + "setsid sleep 301 & echo $! > escaped\n"
        + "trap '' TERM\n"
        + "sleep 302 & echo $! > child\n"
        + "echo $$ > pid\n"
        + "wait");
    Attempt attempt = new Attempt();
    CompletableFuture<ActionOutcome> outcome = start(actions, program(dir, "./forks.sh"), attempt);
    List<Long> pids = List.of(pid("orphan"), pid("escaped"), pid("child"), pid("pid"));
    assertThat(pids).allMatch(Fixtures::running);

    attempt.stop(Attempt.StopReason.COMMAND);
    assertThat(outcome.get(5, TimeUnit.SECONDS))
        .isEqualTo(new ActionOutcome.Stopped(Attempt.StopReason.COMMAND));
    assertThat(pids).noneMatch(Fixtures::running);
  }

  @Test
  void withoutItsOwnProcessGroupAProgramsDescendantsAreStillStopped() throws Exception {
    ExecutorService io = Executors.newCachedThreadPool();
    try {
      ProgramRunner runner = new ProgramRunner(ActionOptions.DEFAULTS.withGrace(GRACE), io, false);
      script(dir, "kids.sh", "sleep 300 & echo $! > child\ntrap '' TERM\necho $$ > pid\nwait");
      Attempt attempt = new Attempt();
      CompletableFuture<ActionOutcome> outcome = start(runner, program(dir, "./kids.sh"), attempt);
      List<Long> pids = List.of(pid("child"), pid("pid"));

      attempt.stop(Attempt.StopReason.SHUTDOWN);
      assertThat(outcome.get(5, TimeUnit.SECONDS))
          .isEqualTo(new ActionOutcome.Stopped(Attempt.StopReason.SHUTDOWN));
      assertThat(pids).noneMatch(Fixtures::running);
    } finally {
      io.shutdownNow();
    }
  }

  @Test
  void aBackgroundChildHoldingStdoutDoesNotHangAFinishedProgram() throws Exception {
    script(dir, "leaves.sh", "sleep 300 & echo $! > child\necho '{\"event\": \"done\"}'");
    long before = System.nanoTime();
    ActionOutcome outcome = actions.run(program(dir, "./leaves.sh"), new Attempt());
    assertThat(outcome).isEqualTo(new ActionOutcome.Event("done", null));
    assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(2));
    assertThat(running(Long.parseLong(awaitFile(dir.resolve("child"))))).isFalse();
  }

  @Test
  void childrenAFinishedProgramLeftRunningAreStopped() throws Exception {
    script(dir, "detaches.sh", "sleep 300 > /dev/null 2>&1 < /dev/null & echo $! > child");
    assertThat(actions.run(program(dir, "./detaches.sh"), new Attempt()))
        .isEqualTo(new ActionOutcome.Event("ok", null));
    assertThat(running(Long.parseLong(awaitFile(dir.resolve("child"))))).isFalse();
  }

  @Test
  void anOrphanInItsOwnSessionHoldingStdoutIsStoppedWhenTheProgramExits() throws Exception {
    script(dir, "escapes.sh", "(setsid sh -c 'echo $$ > escaped; exec sleep 300' &)\n"
        + "while [ ! -s escaped ]; do sleep 0.01; done\n"
        + "echo '{\"event\": \"done\"}'");
    long before = System.nanoTime();
    ActionOutcome outcome = actions.run(program(dir, "./escapes.sh"), new Attempt());
    assertThat(outcome).isEqualTo(new ActionOutcome.Event("done", null));
    // Found by the attempt's environment, not after the 1 s wait for pipes of a lost process.
    assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofMillis(900));
    assertThat(running(pid("escaped"))).isFalse();
  }

  @Test
  void aDetachedOrphanInItsOwnSessionIsStoppedWithTheAttempt() throws Exception {
    script(dir, "daemon.sh", "(setsid sh -c 'echo $$ > daemon; exec sleep 300'"
        + " </dev/null >/dev/null 2>&1 &)\n"
        + "echo $$ > pid\n"
        + "sleep 300");
    Attempt attempt = new Attempt();
    CompletableFuture<ActionOutcome> outcome = start(actions, program(dir, "./daemon.sh"),
        attempt);
    List<Long> pids = List.of(pid("daemon"), pid("pid"));
    assertThat(pids).allMatch(Fixtures::running);

    attempt.stop(Attempt.StopReason.TIMEOUT);
    assertThat(outcome.get(5, TimeUnit.SECONDS))
        .isEqualTo(new ActionOutcome.Stopped(Attempt.StopReason.TIMEOUT));
    assertThat(pids).noneMatch(Fixtures::running);
  }

  @Test
  void anAttemptStoppedBeforeItStartsRunsNothing() throws Exception {
    script(dir, "never.sh", "touch ran");
    Attempt attempt = new Attempt();
    attempt.stop(Attempt.StopReason.LEASE_LOST);
    assertThat(actions.run(program(dir, "./never.sh"), attempt))
        .isEqualTo(new ActionOutcome.Stopped(Attempt.StopReason.LEASE_LOST));
    assertThat(Files.exists(dir.resolve("ran"))).isFalse();
  }
}

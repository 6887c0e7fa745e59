package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

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
 * {@code fsm watch} and {@code fsm tail} ride through runner restarts: a runner killed under them
 * (SIGKILL, between or during polls) or stopped is followed by the store itself, then by the next
 * runner, each change said once on stderr, and they keep printing what happens.
 */
class MonitorRestartIT {

  @TempDir Path dir;

  private final List<FsmProcess> background = new ArrayList<>();

  @AfterEach
  void stopLeftovers() {
    background.forEach(FsmProcess::close);
  }

  @Test
  void watchAndTailFollowTheStoreThroughAKilledRunnerAndTheNextOne() throws IOException {
    Files.createDirectories(dir.resolve("machines"));
    Files.writeString(dir.resolve("machines/door.yaml"), """
        machine: door
        states:
          closed:
            on: {open: opened}
          opened: {final: completed}
        """);
    StoreCommands fsm = new StoreCommands(dir, "store");
    String first = fsm.ok("start", "door", "--id", "d1").out().strip();
    FsmProcess runner = background(FsmProcess.start(dir, "run", "--store", "store"))
        .awaitServing();
    String runnerPid = "runner pid " + runner.pid();
    FsmProcess watch = background(FsmProcess.start(dir, "watch", "--interval", "100ms",
        "--output", "json", "--store", "store"));
    FsmProcess tail = background(FsmProcess.start(dir, "tail", "--interval", "100ms",
        "--store", "store"));
    Await.until("watch to print through the runner", Duration.ofSeconds(20),
        () -> watch.out().contains("\"d1\""));
    Await.until("tail to follow", Duration.ofSeconds(20),
        () -> tail.err().contains("fsm tail: following 1 task(s)"));

    runner.kill();
    runner.awaitExit(Duration.ofSeconds(10));
    String direct = runnerPid + " is gone; reading the store directly";
    Await.until("watch to say it reads the store itself; stderr: " + watch.err(),
        Duration.ofSeconds(20), () -> watch.err().contains("fsm watch: " + direct));
    Await.until("tail to say it reads the store itself; stderr: " + tail.err(),
        Duration.ofSeconds(20), () -> tail.err().contains("fsm tail: " + direct));

    fsm.ok("signal", first, "open");
    Await.until("tail to print the signal's transition", Duration.ofSeconds(20),
        () -> tail.out().contains("d1  door  closed -open-> opened  completed"));
    Await.until("watch to show the task completed", Duration.ofSeconds(20),
        () -> watch.out().contains("\"completed\":1"));

    FsmProcess next = background(FsmProcess.start(dir, "run", "--store", "store"))
        .awaitServing();
    String through = "reading through runner pid " + next.pid();
    Await.until("watch to find the next runner; stderr: " + watch.err(),
        Duration.ofSeconds(20), () -> watch.err().contains("fsm watch: " + through));
    Await.until("tail to find the next runner; stderr: " + tail.err(),
        Duration.ofSeconds(20), () -> tail.err().contains("fsm tail: " + through));
    fsm.ok("start", "door", "--id", "d2");
    fsm.ok("signal", "d2", "open");
    Await.until("tail to print d2's transition through the next runner",
        Duration.ofSeconds(20), () -> tail.out().contains("d2  door  closed -open-> opened"));

    assertThat(watch.alive()).as("watch, stderr: " + watch.err()).isTrue();
    assertThat(tail.alive()).as("tail, stderr: " + tail.err()).isTrue();
    for (FsmProcess monitor : List.of(watch, tail)) {
      // Each change of who serves the store is said once, and nothing else is.
      assertThat(monitor.err()).doesNotContain("hung up").doesNotContain("Exception");
      assertThat(count(monitor.err(), direct)).isEqualTo(1);
      assertThat(count(monitor.err(), through)).isEqualTo(1);
    }
    next.terminate();
    assertThat(next.awaitExit(Duration.ofSeconds(20))).isZero();
  }

  private FsmProcess background(FsmProcess p) {
    background.add(p);
    return p;
  }

  private static int count(String text, String part) {
    int n = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      n++;
    }
    return n;
  }
}

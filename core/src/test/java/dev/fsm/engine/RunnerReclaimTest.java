package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.action.ActionOutcome;
import dev.fsm.action.ActionRunner;
import dev.fsm.action.Attempt;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.SendOptions;
import dev.fsm.operations.StoreOperations;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Command;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task claimed again before its stopped attempt has settled (a pause and a quick resume): the
 * old attempt's settling must not let go of the new one, which must still hear commands.
 */
class RunnerReclaimTest {

  private static final String MACHINE = """
      machine: slow
      states:
        a: {run: builtin:noop, on: {ok: done}}
        done: {final: completed}
      """;

  @TempDir Path dir;
  private final InMemoryStore store = new InMemoryStore();
  private final BlockingQueue<Attempt> started = new LinkedBlockingQueue<>();
  private final CountDownLatch letFirstEnd = new CountDownLatch(1);
  private Thread thread;
  private Runner runner;

  @AfterEach
  void close() throws InterruptedException {
    letFirstEnd.countDown();
    runner.stopNow();
    thread.join(10_000);
    store.close();
  }

  /** Runs until stopped; the first attempt, once stopped, ends only when the test says. */
  private final ActionRunner actions = (request, attempt) -> {
    boolean first = started.isEmpty() && request.task().attempt() <= 1;
    started.add(attempt);
    CountDownLatch stopped = new CountDownLatch(1);
    attempt.onStop(reason -> stopped.countDown());
    try {
      stopped.await();
      if (first) {
        letFirstEnd.await();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    return new ActionOutcome.Stopped(attempt.stopReason());
  };

  @Test
  void theOldAttemptSettlingLeavesTheNewOneHeld() throws Exception {
    MachineLibrary machines = new MachineLibrary(store, dir);
    runner = new Runner(store, machines, actions,
        RunnerOptions.of(2, RunnerOptions.Mode.FOREVER, "runner:test"), Clock.systemUTC(),
        new RunListener() {});
    Path file = dir.resolve("slow.yaml");
    Files.writeString(file, MACHINE);
    StoreOperations ops = new StoreOperations(store, machines, Clock.systemUTC(), "user:test",
        runner, false);
    Task task = ops.start(new MachineSource("slow", file, MACHINE),
        List.of(new NewTask(null, "{}", null))).get(0);
    thread = new Thread(runner::run);
    thread.start();

    Attempt first = started.poll(10, TimeUnit.SECONDS);
    assertThat(first).isNotNull();
    ops.send(task.id(), Command.PAUSE, SendOptions.of(null, ""));
    assertThat(first.stopReason()).isEqualTo(Attempt.StopReason.COMMAND);
    ops.send(task.id(), Command.RUN, SendOptions.of(null, ""));
    Attempt second = started.poll(10, TimeUnit.SECONDS);
    assertThat(second).as("claimed again while the first is still settling").isNotNull();

    letFirstEnd.countDown();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (runner.running() > 1 && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    assertThat(runner.holds(task.id())).as("the new attempt is still held").isTrue();
    ops.send(task.id(), Command.PAUSE, SendOptions.of(null, ""));
    assertThat(second.stopReason()).isEqualTo(Attempt.StopReason.COMMAND);
    assertThat(store.get(task.id()).orElseThrow().status()).isEqualTo(TaskStatus.PAUSED);
  }
}

package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.action.ActionOutcome;
import dev.fsm.action.ActionRunner;
import dev.fsm.action.Attempt;
import dev.fsm.model.Action;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.StoreOperations;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Command;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner against an in-memory store, with built-ins run by a small fake. */
class RunnerTest {

  @TempDir Path dir;
  private InMemoryStore store;
  private MachineLibrary machines;
  private StoreOperations control;
  private final List<String> problems = Collections.synchronizedList(new ArrayList<>());

  /** Runs built-ins as the real ones would, plus {@code builtin:sleep} until stopped. */
  private final ActionRunner fake = (request, attempt) -> {
    Action.Builtin b = (Action.Builtin) request.action();
    return switch (b.builtin()) {
      case NOOP -> new ActionOutcome.Event("ok", null);
      case EMIT -> new ActionOutcome.Event(b.args().get(0), "{\"emitted\":true}");
      case FAIL -> new ActionOutcome.Error(String.join(" ", b.args()));
      case SLEEP -> {
        CountDownLatch stopped = new CountDownLatch(1);
        attempt.onStop(r -> stopped.countDown());
        try {
          if (stopped.await(dev.fsm.model.Durations.parse(b.args().get(0)).toMillis(), TimeUnit.MILLISECONDS)) {
            yield new ActionOutcome.Stopped(attempt.stopReason());
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        yield new ActionOutcome.Event("ok", null);
      }
    };
  };

  @BeforeEach
  void open() {
    store = new InMemoryStore();
    machines = new MachineLibrary(store, dir);
  }

  @AfterEach
  void close() {
    store.close();
    assertThat(problems).isEmpty();
  }

  private Runner runner(RunnerOptions.Mode mode, int workers) {
    Runner runner = new Runner(store, machines, fake,
        RunnerOptions.of(workers, mode, "runner:test").withShutdownGrace(Duration.ofMillis(200)),
        Clock.systemUTC(), new RunListener() {
          @Override
          public void problem(String message) {
            problems.add(message);
          }
        });
    control = new StoreOperations(store, machines, Clock.systemUTC(), "user:test", runner, false);
    return runner;
  }

  private List<Task> start(String yaml, int count) throws Exception {
    Path file = dir.resolve("m.yaml");
    Files.writeString(file, yaml);
    List<NewTask> tasks = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      tasks.add(new NewTask(null, "{\"n\":" + i + "}", null));
    }
    String name = yaml.lines().filter(l -> l.startsWith("machine:")).findFirst().orElseThrow()
        .substring(8).strip();
    return control.start(new MachineSource(name, file, yaml), tasks);
  }

  @Test
  void untilIdleTreatsAParkedFaultTaskAsIdle() throws Exception {
    Runner runner = runner(RunnerOptions.Mode.UNTIL_IDLE, 2);
    List<Task> tasks = start("""
        machine: once
        states:
          charge: {run: builtin:noop, timeout: 0, on: {ok: done}}
          done: {final: completed}
        """, 2);
    // A runner that died mid-attempt: the start of an at-most-once attempt with no end.
    Instant now = Instant.now();
    Task claimed = store.claim("runner:dead", 1, now, Duration.ofMillis(1)).get(0);
    Plan.RunAction started = (Plan.RunAction) Step.claimed(claimed,
        machines.machine(claimed.machine(), claimed.version()), false, now, 0.5,
        "runner:dead@h/w1");
    store.record("runner:dead", started.startRecord().orElseThrow());

    runner.run();
    Task parked = store.get(claimed.id()).orElseThrow();
    assertThat(parked.status()).isEqualTo(TaskStatus.FAULT);
    assertThat(parked.due()).as("parked: nothing scheduled").isNull();
    assertThat(parked.errors().get(0).message()).contains("was interrupted before it ended");
    Task other = tasks.get(0).id().equals(claimed.id()) ? tasks.get(1) : tasks.get(0);
    assertThat(store.get(other.id()).orElseThrow().status()).isEqualTo(TaskStatus.COMPLETED);
    assertThat(store.nextDue()).isEmpty();
  }

  @Test
  void untilIdleForSomeMachinesDoesNotWaitForOtherMachinesTasks() throws Exception {
    Runner runner = new Runner(store, machines, fake,
        RunnerOptions.of(1, RunnerOptions.Mode.UNTIL_IDLE, "runner:test")
            .onlyMachines(java.util.Set.of("ma")),
        Clock.systemUTC(), RunListener.NONE);
    control = new StoreOperations(store, machines, Clock.systemUTC(), "user:test", runner, false);
    Task a = startMachine("ma");
    Task b = startMachine("mb");

    CompletableFuture<Void> run = CompletableFuture.runAsync(runner::run);
    // Without the machine filter in its idle check, the runner waited for mb's task forever.
    run.get(30, TimeUnit.SECONDS);
    assertThat(store.get(a.id()).orElseThrow().status()).isEqualTo(TaskStatus.COMPLETED);
    assertThat(store.get(b.id()).orElseThrow().status()).isEqualTo(TaskStatus.RUNNABLE);
  }

  private Task startMachine(String name) throws Exception {
    String yaml = "machine: " + name + "\nstates:\n  a: {run: builtin:noop, on: {ok: z}}\n"
        + "  z: {final: completed}\n";
    Path file = Files.writeString(dir.resolve(name + ".yaml"), yaml);
    return control.start(new MachineSource(name, file, yaml), List.of(new NewTask(null, "{}",
        null))).get(0);
  }

  @Test
  void aChainOfActionsAndAWaitRunsEveryTaskToItsFinalStateWithWholeHistories() throws Exception {
    Runner runner = runner(RunnerOptions.Mode.UNTIL_IDLE, 4);
    List<Task> tasks = start("""
        machine: chain
        states:
          a: {run: builtin:noop, on: {ok: b}}
          b: {run: builtin:emit next, on: {next: pause}}
          pause: {wait: 20ms, on: {ok: done}}
          done: {final: completed}
        """, 200);
    runner.run();
    for (Task t : tasks) {
      Task after = store.get(t.id()).orElseThrow();
      assertThat(after.status()).isEqualTo(TaskStatus.COMPLETED);
      assertThat(after.state()).isEqualTo("done");
      assertThat(after.context()).contains("\"emitted\":true").contains("\"n\":");
      assertThat(after.lease()).isNull();
      assertThat(store.history(t.id())).extracting(Transition::event)
          .containsExactly("ok", "next", "ok");
    }
    assertThat(runner.counters().transitions()).as("two actions and a wait each")
        .isEqualTo(600);
    assertThat(runner.counters().errors()).isZero();
  }

  @Test
  void errorsRetryWithBackoffThenFailAndAnErrorEdgeTakesPrecedence() throws Exception {
    Runner runner = runner(RunnerOptions.Mode.UNTIL_IDLE, 2);
    Task failing = start("""
        machine: flaky
        states:
          call:
            run: builtin:fail upstream down
            retry: {max_errors: 3, window: 1h, backoff: 10ms}
            on: {ok: done}
          done: {final: completed}
        """, 1).get(0);
    Task caught = start("""
        machine: caught
        states:
          call: {run: builtin:fail boom, on: {ok: done, error: cleanup}}
          cleanup: {final: failed}
          done: {final: completed}
        """, 1).get(0);
    runner.run();
    Task f = store.get(failing.id()).orElseThrow();
    assertThat(f.status()).isEqualTo(TaskStatus.FAILED);
    assertThat(f.errors()).hasSize(3).extracting(e -> e.message()).containsOnly("upstream down");
    assertThat(store.history(failing.id())).hasSize(3).allSatisfy(e -> {
      assertThat(e.event()).isEqualTo("error");
      assertThat(e.by()).startsWith("runner:test/w");
    });
    assertThat(store.history(failing.id()).get(2).reason()).contains("failed: 3 of 3 errors");
    Task c = store.get(caught.id()).orElseThrow();
    assertThat(c.status()).isEqualTo(TaskStatus.FAILED);
    assertThat(c.state()).isEqualTo("cleanup");
    assertThat(store.history(caught.id()).get(0).reason()).isEqualTo("boom");
  }

  @Test
  void untilIdleStopsWithTasksWaitingForASignalAndASignalMovesThemOn() throws Exception {
    Runner runner = runner(RunnerOptions.Mode.UNTIL_IDLE, 2);
    Task t = start("""
        machine: signed
        states:
          send: {run: builtin:noop, on: {ok: await}}
          await: {on: {signed: done}}
          done: {final: completed}
        """, 1).get(0);
    runner.run();
    assertThat(store.get(t.id()).orElseThrow().state()).isEqualTo("await");
    assertThat(store.nextDue()).isEmpty();
    control.signal(t.id(), "signed", "{\"by\":\"ann\"}");
    Task done = store.get(t.id()).orElseThrow();
    assertThat(done.status()).isEqualTo(TaskStatus.COMPLETED);
    assertThat(done.context()).contains("\"by\":\"ann\"");
  }

  @Test
  void aPauseStopsTheRunningActionAtOnceAndItsAttemptIsNotRecorded() throws Exception {
    Runner runner = runner(RunnerOptions.Mode.FOREVER, 1);
    Task t = start("""
        machine: slow
        states:
          work: {run: builtin:sleep 30s, on: {ok: done}}
          done: {final: completed}
        """, 1).get(0);
    Thread thread = new Thread(runner::run);
    thread.start();
    awaitRunning(runner);
    long sent = System.nanoTime();
    control.send(t.id(), Command.PAUSE, null, "maintenance");
    while (runner.running() > 0) {
      Thread.onSpinWait();
    }
    assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(Duration.ofSeconds(5));
    runner.stop();
    thread.join(10_000);
    Task paused = store.get(t.id()).orElseThrow();
    assertThat(paused.status()).isEqualTo(TaskStatus.PAUSED);
    assertThat(paused.state()).isEqualTo("work");
    assertThat(store.history(t.id())).extracting(Transition::event).containsExactly("pause");
  }

  @Test
  void anInterruptedAtMostOnceAttemptGoesToFaultInsteadOfRunningAgain() throws Exception {
    Runner first = runner(RunnerOptions.Mode.FOREVER, 1);
    Task t = start("""
        machine: once
        states:
          charge: {run: builtin:sleep 30s, timeout: 0, on: {ok: done}}
          done: {final: completed}
        """, 1).get(0);
    Thread thread = new Thread(first::run);
    thread.start();
    awaitRunning(first);
    first.stopNow();
    thread.join(10_000);
    // A new runner, as after a crash: the first one's lease is gone.
    store.update(t.id(), task -> new dev.fsm.task.Change(new Task(task.id(), task.machine(),
        task.version(), task.state(), task.status(), task.context(), task.attempt(),
        task.errors(), task.created(), task.stateEntered(), task.lastAttempt(), task.due(), null),
        new Transition(java.time.Instant.now(), "charge", "checkpoint", "charge", 0, 1,
            "user:test", "")));
    Runner second = runner(RunnerOptions.Mode.UNTIL_IDLE, 1);
    second.run();
    Task after = store.get(t.id()).orElseThrow();
    assertThat(after.status()).isEqualTo(TaskStatus.FAULT);
    assertThat(after.errors()).last().extracting(e -> e.message()).asString()
        .contains("at-most-once").contains("interrupted");
    assertThat(store.history(t.id())).extracting(Transition::event)
        .containsExactly("start", "checkpoint", "error");
  }

  @Test
  void aRestartedRunnersAdaptiveTimeoutStartsFromTheDurationsInTheStore() throws Exception {
    Runner runner = runner(RunnerOptions.Mode.UNTIL_IDLE, 1);
    PastRuns past = new PastRuns(store);
    for (int i = 0; i < Timeouts.MIN_SAMPLES; i++) {
      past.task("past-" + i, "slowpay", "done");
      past.ran("past-" + i, "pay", "ok", "done", i, 100);
    }
    // Without the seed the limit would be the 5-minute default, and the 30 s sleep would end.
    Task t = start("""
        machine: slowpay
        states:
          pay: {run: builtin:sleep 30s, on: {ok: done, timeout: late}}
          done: {final: completed}
          late: {final: failed}
        """, 1).get(0);
    runner.run();
    assertThat(store.get(t.id()).orElseThrow().state()).isEqualTo("late");
    assertThat(store.history(t.id())).singleElement().satisfies(e -> {
      assertThat(e.event()).isEqualTo("timeout");
      assertThat(e.reason()).isEqualTo("timed out after p95 = 1s (20 samples)");
    });
  }

  @Test
  void onceRunsOnePassOverWhatIsDueNow() throws Exception {
    Runner runner = runner(RunnerOptions.Mode.ONCE, 2);
    List<Task> tasks = start("""
        machine: steps
        states:
          one: {run: builtin:noop, on: {ok: two}}
          two: {run: builtin:noop, on: {ok: done}}
          done: {final: completed}
        """, 10);
    runner.run();
    for (Task t : tasks) {
      assertThat(store.get(t.id()).orElseThrow().state()).isEqualTo("two");
    }
  }

  private static void awaitRunning(Runner runner) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (runner.running() == 0) {
      assertThat(System.nanoTime()).isLessThan(deadline);
      Thread.sleep(1);
    }
  }
}

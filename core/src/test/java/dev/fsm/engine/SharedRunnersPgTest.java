package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.action.ActionOutcome;
import dev.fsm.action.ActionRunner;
import dev.fsm.model.Action;
import dev.fsm.operations.StoreOperations;
import dev.fsm.store.BreakerNews;
import dev.fsm.store.StoreEvents;
import dev.fsm.store.postgres.PgStore;
import dev.fsm.store.postgres.PgUrl;
import dev.fsm.store.postgres.TestPostgres;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three runners, each with its own connections, on one PostgreSQL schema, as three hosts would
 * be: a machine's {@code concurrency:} cap and its circuit breaker hold across all of them.
 */
class SharedRunnersPgTest {

  @TempDir Path dir;
  private final PgUrl url = PgUrl.parse(TestPostgres.server().freshUrl());
  private final List<PgStore> stores = new ArrayList<>();
  private final List<Thread> threads = new ArrayList<>();
  private final List<Runner> runners = new ArrayList<>();
  private final List<String> problems = new CopyOnWriteArrayList<>();
  private final AtomicInteger running = new AtomicInteger();
  private final AtomicInteger most = new AtomicInteger();
  private final List<String> started = new CopyOnWriteArrayList<>();

  /** {@code builtin:sleep D} sleeps, {@code builtin:fail} errors; counted while running. */
  private final ActionRunner counting = (request, attempt) -> {
    started.add(request.task().id() + " of " + request.task().machine());
    most.accumulateAndGet(running.incrementAndGet(), Math::max);
    try {
      Action.Builtin b = (Action.Builtin) request.action();
      if (b.builtin() == dev.fsm.model.BuiltinAction.FAIL) {
        return new ActionOutcome.Error(String.join(" ", b.args()));
      }
      Thread.sleep(dev.fsm.model.Durations.parse(b.args().get(0)).toMillis());
      return new ActionOutcome.Event("ok", null);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new ActionOutcome.Event("ok", null);
    } finally {
      running.decrementAndGet();
    }
  };

  @AfterEach
  void stop() throws InterruptedException {
    runners.forEach(Runner::stop);
    for (Thread t : threads) {
      t.join(TimeUnit.SECONDS.toMillis(20));
    }
    stores.forEach(PgStore::close);
    assertThat(problems).isEmpty();
  }

  private Runner runner(int n, int workers) {
    return runner(n, workers, java.util.Set.of());
  }

  private Runner runner(int n, int workers, java.util.Set<String> only) {
    PgStore store = PgStore.open(url, true);
    stores.add(store);
    MachineLibrary machines = new MachineLibrary(store, dir);
    Runner runner = new Runner(store, machines, counting,
        RunnerOptions.of(workers, RunnerOptions.Mode.FOREVER, "runner:" + n + "@test")
            .onlyMachines(only),
        store.clock(), new RunListener() {
          @Override
          public void problem(String message) {
            problems.add(message);
          }
        });
    store.listen(new StoreEvents() {
      @Override
      public void taskChanged(String id, String event) {
        runner.workArrived();
      }

      @Override
      public void workArrived() {
        runner.workArrived();
      }

      @Override
      public void breakerChanged(BreakerNews news) {
        runner.breakerHeard(news);
      }

      @Override
      public void heardAgain() {
        runner.newsMissed();
      }
    });
    runners.add(runner);
    return runner;
  }

  private void startAll() {
    for (Runner r : runners) {
      Thread t = new Thread(r::run, "runner");
      t.setDaemon(true);
      threads.add(t);
      t.start();
    }
  }

  private List<Task> start(String yaml, int count) throws Exception {
    PgStore store = stores.get(0);
    return MachineTasks.start(new StoreOperations(store, new MachineLibrary(store, dir),
        Clock.systemUTC(), "user:test", OperatorListener.NONE, false), dir, yaml, count);
  }


  private static void await(String what, BooleanSupplier done) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!done.getAsBoolean()) {
      assertThat(System.nanoTime()).as("waited 60 s for " + what).isLessThan(deadline);
      Thread.sleep(20);
    }
  }

  @Test
  void aMachineCapHoldsAcrossThreeRunners() throws Exception {
    for (int i = 0; i < 3; i++) {
      runner(i, 3);
    }
    List<Task> tasks = start("""
        machine: capped
        concurrency: 2
        states:
          a: {run: builtin:sleep 30ms, on: {ok: b}}
          b: {run: builtin:sleep 30ms, on: {ok: done}}
          done: {final: completed}
        """, 24);
    startAll();
    PgStore store = stores.get(0);
    await("every task to complete", () -> tasks.stream().allMatch(t ->
        store.get(t.id()).orElseThrow().status() == TaskStatus.COMPLETED));
    assertThat(most.get()).as("attempts of the capped machine running at once").isBetween(1, 2);
  }

  @Test
  void aBreakerOneRunnerOpensHoldsTheMachineOnEveryRunner() throws Exception {
    // Only runner 0 runs the failing machine, so only it sees the errors; the others hear.
    runner(0, 2);
    runner(1, 1, java.util.Set.of("steady"));
    runner(2, 1, java.util.Set.of("steady"));
    start("""
        machine: flaky
        breaker: {errors: 50%, min_attempts: 4, window: 1m, cooldown: 1h}
        states:
          a:
            run: builtin:fail down
            retry: {max_errors: 50, window: 1h, backoff: 1ms}
            on: {ok: done}
          done: {final: completed}
        """, 6);
    List<Task> steady = start("""
        machine: steady
        states:
          a: {run: builtin:sleep 1ms, on: {ok: done}}
          done: {final: completed}
        """, 1);
    startAll();
    await("every runner's breaker to be open", () -> runners.stream().allMatch(r ->
        r.breakers().containsKey("flaky") && r.breakers().get("flaky")
            .status(Clock.systemUTC().instant()).phase() == Breaker.Phase.OPEN));
    // Claimed before it opened is not yet started: wait for the runners, not the actions. The
    // steady machine's task, which no breaker holds, may start late on a busy machine: it is
    // awaited too, so that every start counted after this is the flaky machine's.
    PgStore store = stores.get(0);
    await("the steady task to complete", () -> steady.stream().allMatch(t ->
        store.get(t.id()).orElseThrow().status() == TaskStatus.COMPLETED));
    await("the attempts claimed before to end", () -> running.get() == 0
        && runners.stream().allMatch(r -> r.running() == 0));
    int attempts = started.size();
    Thread.sleep(500);
    List<String> all = List.copyOf(started);
    assertThat(all.subList(attempts, all.size())).as("attempts started once it is open").isEmpty();
  }
}

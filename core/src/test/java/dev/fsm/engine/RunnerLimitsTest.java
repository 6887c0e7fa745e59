package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.action.ActionOutcome;
import dev.fsm.action.ActionRunner;
import dev.fsm.model.Action;
import dev.fsm.operations.MachineBreaker;
import dev.fsm.operations.StoreOperations;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.AttemptErrors;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The runner's limits accounting: caps never exceeded, the breaker holding a machine back. */
class RunnerLimitsTest {

  @TempDir Path dir;
  private InMemoryStore store;
  private MachineLibrary machines;
  private StoreOperations control;
  private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
  private final List<Breaker.Change> breakerChanges =
      Collections.synchronizedList(new ArrayList<>());
  /** Running attempts per "machine" and per "machine/state", and the most seen at once. */
  private final Map<String, AtomicInteger> now = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> most = new ConcurrentHashMap<>();

  /** {@code builtin:sleep D} sleeps, {@code builtin:fail} errors, each counted while running. */
  private final ActionRunner counting = (request, attempt) -> {
    Action.Builtin b = (Action.Builtin) request.action();
    Task t = request.task();
    List<String> keys = List.of(t.machine(), t.machine() + "/" + t.state());
    for (String k : keys) {
      int n = now.computeIfAbsent(k, x -> new AtomicInteger()).incrementAndGet();
      most.computeIfAbsent(k, x -> new AtomicInteger()).accumulateAndGet(n, Math::max);
    }
    try {
      return switch (b.builtin()) {
        case SLEEP -> {
          try {
            Thread.sleep(dev.fsm.model.Durations.parse(b.args().get(0)).toMillis());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          yield new ActionOutcome.Event("ok", null);
        }
        case FAIL -> new ActionOutcome.Error(String.join(" ", b.args()));
        default -> new ActionOutcome.Event("ok", null);
      };
    } finally {
      keys.forEach(k -> now.get(k).decrementAndGet());
    }
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

  private Runner runner(int workers) {
    return runner(workers, RunnerOptions.Mode.UNTIL_IDLE);
  }

  private Runner runner(int workers, RunnerOptions.Mode mode) {
    return runner(RunnerOptions.of(workers, mode, "runner:test"));
  }

  private Runner runner(RunnerOptions options) {
    Runner runner = new Runner(store, machines, counting, options,
        Clock.systemUTC(), new RunListener() {
          @Override
          public void problem(String message) {
            problems.add(message);
          }

          @Override
          public void breaker(String machine, Breaker.Change change) {
            breakerChanges.add(change);
          }
        });
    control = new StoreOperations(store, machines, Clock.systemUTC(), "user:test", runner, false);
    return runner;
  }

  private List<Task> start(String yaml, int count) throws Exception {
    return MachineTasks.start(control, dir, yaml, count);
  }


  private int most(String key) {
    return most.getOrDefault(key, new AtomicInteger()).get();
  }

  @Test
  void aMachineCapOfOneHoldsWithFourWorkersWhileAnotherMachineRunsBeside() throws Exception {
    Runner runner = runner(4);
    List<Task> capped = start("""
        machine: capped
        concurrency: 1
        states:
          a: {run: builtin:sleep 15ms, on: {ok: b}}
          b: {run: builtin:sleep 15ms, on: {ok: done}}
          done: {final: completed}
        """, 8);
    List<Task> free = start("""
        machine: free
        states:
          a: {run: builtin:sleep 15ms, on: {ok: done}}
          done: {final: completed}
        """, 24);
    runner.run();
    for (Task t : concat(capped, free)) {
      assertThat(store.get(t.id()).orElseThrow().status()).isEqualTo(TaskStatus.COMPLETED);
    }
    assertThat(most("capped")).isEqualTo(1);
    assertThat(most("free")).isGreaterThan(1);
    // Held back is not an error: one ok per state, nothing else in any history.
    for (Task t : capped) {
      assertThat(store.history(t.id())).extracting(Transition::event).containsExactly("ok", "ok");
    }
    assertThat(runner.counters().errors()).isZero();
  }

  @Test
  void aStateCapHoldsOnlyThatState() throws Exception {
    Runner runner = runner(6);
    start("""
        machine: m
        states:
          narrow: {run: builtin:sleep 10ms, concurrency: 2, on: {ok: wide}}
          wide: {run: builtin:sleep 200ms, on: {ok: done}}
          done: {final: completed}
        """, 18);
    runner.run();
    assertThat(most("m/narrow")).isEqualTo(2);
    assertThat(most("m/wide")).isGreaterThan(2);
  }

  @Test
  void anOpenBreakerStartsNothingUntilItsCooldownThenOneProbe() throws Exception {
    Runner runner = runner(1);
    List<Task> tasks = start("""
        machine: flaky
        breaker: {errors: 50%, min_attempts: 4, window: 1m, cooldown: 100ms}
        states:
          a:
            run: builtin:fail down
            retry: {max_errors: 4, window: 1h, backoff: 1ms}
            on: {ok: done}
          done: {final: completed}
        """, 2);
    runner.run();
    // 2 tasks x 4 errors each, all failed in the end; the breaker opened and probes failed.
    for (Task t : tasks) {
      assertThat(store.get(t.id()).orElseThrow().status()).isEqualTo(TaskStatus.FAILED);
    }
    assertThat(breakerChanges).isNotEmpty();
    Breaker.Change first = breakerChanges.get(0);
    assertThat(first.opened()).isTrue();
    assertThat(first.probeFailed()).isFalse();
    assertThat(first.status().attempts()).isEqualTo(4);
    assertThat(first.status().errorRate()).isEqualTo(1.0);
    assertThat(breakerChanges.get(1).probeFailed()).isTrue();
    // Each reopening doubles the cooldown.
    Duration second = Duration.between(first.status().until(), breakerChanges.get(1).status()
        .until());
    assertThat(second).isGreaterThanOrEqualTo(Duration.ofMillis(200));
    // No attempt ended while it was open: every error after the opening is a probe's, at
    // least a cooldown after the previous.
    List<java.time.Instant> ends = new ArrayList<>();
    for (Task t : tasks) {
      store.history(t.id()).stream().filter(AttemptErrors::isError)
          .forEach(e -> ends.add(e.time()));
    }
    Collections.sort(ends);
    java.time.Instant opened = ends.get(3);
    java.time.Instant until = first.status().until();
    assertThat(ends.stream().filter(e -> e.isAfter(opened) && e.isBefore(until))).isEmpty();
    MachineBreaker shown = control.breakers().get(0);
    assertThat(shown.machine()).isEqualTo("flaky");
    assertThat(shown.state()).isIn("open", "half-open");
    assertThat(shown.attempts()).isEqualTo(4);
    assertThat(shown.errorRate()).isEqualTo(1.0);
  }

  @Test
  void tasksClaimedAheadDoNotStartOnceTheBreakerOpens() throws Exception {
    // One worker and short actions: after a few attempts the runner claims tasks ahead, so
    // some wait for the worker when the tenth error opens the breaker. They must not start.
    Runner runner = runner(RunnerOptions.of(1, RunnerOptions.Mode.ONCE, "runner:test")
        .claimingAhead(RunnerOptions.AHEAD_PER_WORKER));
    List<Task> tasks = start("""
        machine: flaky
        breaker: {errors: 50%, min_attempts: 10, window: 1h, cooldown: 1h}
        states:
          a:
            run: builtin:fail down
            retry: {max_errors: 1}
            on: {ok: done}
          done: {final: completed}
        """, 30);
    runner.run();
    assertThat(breakerChanges).singleElement().extracting(Breaker.Change::opened)
        .isEqualTo(true);
    List<Task> attempted = tasks.stream()
        .filter(t -> !store.history(t.id()).isEmpty()).toList();
    assertThat(attempted).as("attempts started").hasSize(10);
    // Those let go wait in the due queue, unleased: anyone may claim them once it closes.
    List<String> unstarted = tasks.stream().filter(t -> !attempted.contains(t)).map(Task::id)
        .toList();
    assertThat(store.claim("runner:other", 100, java.time.Instant.now(), Duration.ofMinutes(1))
        .stream().map(Task::id)).containsExactlyInAnyOrderElementsOf(unstarted);
  }

  @Test
  void aRunnerStartedWhileTheBreakerWasOpenKeepsItOpenFromTheHistory() throws Exception {
    String yaml = """
        machine: flaky
        breaker: {errors: 50%, min_attempts: 4, window: 1m, cooldown: 1h}
        states:
          a:
            run: builtin:fail down
            retry: {max_errors: 2, window: 1h, backoff: 1ms}
            on: {ok: done}
          done: {final: completed}
        """;
    Runner first = runner(1);
    start(yaml, 2);
    first.run();
    assertThat(breakerChanges).hasSize(1);
    breakerChanges.clear();
    // A new runner, as after a restart: a new task of the machine waits, the breaker open.
    Runner again = runner(2, RunnerOptions.Mode.ONCE);
    Task fresh = start(yaml, 1).get(0);
    again.run();
    assertThat(again.breakers().get("flaky").status(Clock.systemUTC().instant()).phase())
        .isEqualTo(Breaker.Phase.OPEN);
    assertThat(breakerChanges).singleElement().extracting(Breaker.Change::opened)
        .isEqualTo(true);
    assertThat(store.history(fresh.id())).isEmpty();
    assertThat(store.get(fresh.id()).orElseThrow().attempt()).isZero();
  }

  private static List<Task> concat(List<Task> a, List<Task> b) {
    List<Task> all = new ArrayList<>(a);
    all.addAll(b);
    return all;
  }
}

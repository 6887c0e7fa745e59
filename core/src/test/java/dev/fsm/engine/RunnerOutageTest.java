package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.action.ActionOutcome;
import dev.fsm.action.ActionRunner;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.StoreOperations;
import dev.fsm.store.Store;
import dev.fsm.store.StoreUnavailableException;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A runner whose store goes away for a while: it says so once, retries, and loses nothing. */
class RunnerOutageTest {

  @TempDir Path dir;
  private final List<String> problems = Collections.synchronizedList(new ArrayList<>());

  private static final Set<String> TOUCHING = Set.of("claim", "nextDue", "recordAll", "renew",
      "get", "history", "versions", "counts");

  /**
   * {@code store}, going away at the first call of {@code armOn} once armed: then that call and
   * the next calls that touch it fail, {@code failures} in all, as a server restarting would.
   */
  private static Store failing(Store store, String armOn, AtomicInteger failures,
      AtomicInteger armed) {
    return (Store) Proxy.newProxyInstance(Store.class.getClassLoader(),
        new Class<?>[] {Store.class}, (proxy, method, args) -> {
          if (armed.get() == 1 && method.getName().equals(armOn)) {
            armed.set(2);
          }
          if (armed.get() == 2 && TOUCHING.contains(method.getName())
              && failures.getAndDecrement() > 0) {
            throw new StoreUnavailableException("cannot reach PostgreSQL at db:5432/fsm:"
                + " connection refused");
          }
          try {
            return method.invoke(store, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  private List<String> runThrough(String armOn, int failures) throws Exception {
    return runThrough(armOn, failures, """
        machine: steps
        states:
          one: {run: builtin:noop, on: {ok: two}}
          two: {run: builtin:noop, on: {ok: done}}
          done: {final: completed}
        """, 2);
  }

  private List<String> runThrough(String armOn, int failures, String yaml, int entries)
      throws Exception {
    InMemoryStore memory = new InMemoryStore();
    AtomicInteger left = new AtomicInteger(failures);
    AtomicInteger armed = new AtomicInteger();
    Store store = failing(memory, armOn, left, armed);
    MachineLibrary machines = new MachineLibrary(store, dir);
    ActionRunner noop = (request, attempt) -> new ActionOutcome.Event("ok", null);
    Runner runner = new Runner(store, machines, noop,
        RunnerOptions.of(2, RunnerOptions.Mode.UNTIL_IDLE, "runner:test"),
        Clock.systemUTC(), new RunListener() {
          @Override
          public void problem(String message) {
            problems.add(message);
          }
        });
    StoreOperations control = new StoreOperations(store, machines, Clock.systemUTC(),
        "user:test", runner, false);
    Path file = dir.resolve("steps.yaml");
    Files.writeString(file, yaml);
    List<NewTask> tasks = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      tasks.add(new NewTask(null, "{}", null));
    }
    List<String> ids = control.start(new MachineSource("steps", file, yaml), tasks).stream()
        .map(Task::id).toList();
    armed.set(1);
    runner.run();
    for (String id : ids) {
      Task t = memory.get(id).orElseThrow();
      assertThat(t.status()).as(id).isEqualTo(TaskStatus.COMPLETED);
      assertThat(memory.history(id)).as("each step recorded once").hasSize(entries);
    }
    memory.close();
    return problems;
  }

  @Test
  void claimsRideThroughAnOutageSayingSoOnceWhenItStartsAndOnceWhenItEnds() throws Exception {
    List<String> said = runThrough("claim", 4);
    assertThat(said).hasSize(2);
    assertThat(said.get(0)).startsWith("store unavailable (claiming): cannot reach PostgreSQL")
        .contains("retrying every 100 ms to 5.0 s, nothing recorded is lost");
    assertThat(said.get(1)).startsWith("store reachable again after ");
  }

  @Test
  void aWorkerReadingAHistoryWaitsOutAnOutageInsteadOfDroppingItsTask() throws Exception {
    // At most once: before its action runs, a worker reads the task's history.
    List<String> said = runThrough("history", 3, """
        machine: steps
        states:
          one: {run: builtin:noop, timeout: 0, on: {ok: two}}
          two: {run: builtin:noop, timeout: 0, on: {ok: done}}
          done: {final: completed}
        """, 4);
    assertThat(said).hasSize(2);
    assertThat(said.get(0)).matches("store unavailable \\((reading a task's history|claiming|"
        + "recording outcomes)\\): .*");
    assertThat(said.get(1)).startsWith("store reachable again after ");
  }

  @Test
  void outcomesThatCouldNotBeRecordedAreRecordedOnceTheStoreIsBack() throws Exception {
    List<String> said = runThrough("recordAll", 3);
    assertThat(said).hasSize(2);
    // The outage starts at a record; a claim on the loop's thread may be the first to say so.
    assertThat(said.get(0)).matches("store unavailable \\((recording outcomes|claiming)\\): .*");
    assertThat(said.get(1)).startsWith("store reachable again after ");
  }

  @Test
  void aRunnerThatCannotRenewStopsItsActionBeforeTheLeaseEndsAndRecordsNothingForIt()
      throws Exception {
    InMemoryStore memory = new InMemoryStore();
    java.util.concurrent.atomic.AtomicBoolean cut = new java.util.concurrent.atomic.AtomicBoolean();
    Store store = (Store) Proxy.newProxyInstance(Store.class.getClassLoader(),
        new Class<?>[] {Store.class}, (proxy, method, args) -> {
          if (cut.get() && method.getName().equals("renew")) {
            throw new StoreUnavailableException("cannot reach PostgreSQL at db:5432/fsm:"
                + " connection refused");
          }
          try {
            return method.invoke(memory, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
    MachineLibrary machines = new MachineLibrary(store, dir);
    List<String> attempts = Collections.synchronizedList(new ArrayList<>());
    ActionRunner firstHangs = (request, attempt) -> {
      if (!attempts.isEmpty()) {
        attempts.add("ran again");
        return new ActionOutcome.Event("ok", null);
      }
      long start = System.nanoTime();
      cut.set(true);
      java.util.concurrent.CompletableFuture<dev.fsm.action.Attempt.StopReason> stop =
          new java.util.concurrent.CompletableFuture<>();
      attempt.onStop(stop::complete);
      try {
        dev.fsm.action.Attempt.StopReason reason = stop.get(10, java.util.concurrent.TimeUnit.SECONDS);
        attempts.add(reason + " after " + Duration.ofNanos(System.nanoTime() - start).toMillis());
        cut.set(false);
        return new ActionOutcome.Stopped(reason);
      } catch (Exception e) {
        attempts.add("not stopped: " + e);
        return new ActionOutcome.Error("not stopped");
      }
    };
    Runner runner = new Runner(store, machines, firstHangs,
        RunnerOptions.of(1, RunnerOptions.Mode.UNTIL_IDLE, "runner:test")
            .withLease(Duration.ofSeconds(1), Duration.ofMillis(200)),
        Clock.systemUTC(), new RunListener() {
          @Override
          public void problem(String message) {
            problems.add(message);
          }
        });
    StoreOperations control = new StoreOperations(store, machines, Clock.systemUTC(),
        "user:test", runner, false);
    String yaml = """
        machine: one
        states:
          work: {run: builtin:noop, on: {ok: done}}
          done: {final: completed}
        """;
    Path file = dir.resolve("one.yaml");
    Files.writeString(file, yaml);
    String id = control.start(new MachineSource("one", file, yaml),
        List.of(new NewTask(null, "{}", null))).get(0).id();
    runner.run();

    // Fenced at lease (1 s) - grace (200 ms) - margin (200 ms) after the claim: before the
    // lease ends, whatever a busy machine adds.
    assertThat(attempts).hasSize(2);
    assertThat(attempts.get(0)).startsWith("LEASE_LOST after ");
    long after = Long.parseLong(attempts.get(0).substring("LEASE_LOST after ".length()));
    assertThat(after).isBetween(450L, 999L);
    assertThat(attempts.get(1)).isEqualTo("ran again");
    assertThat(problems).anyMatch(p -> p.startsWith("store unavailable (renewing leases): "))
        .contains("lease could not be renewed in time (the store was unreachable or slow to"
            + " answer, or this process got too little CPU; a longer --lease gives both more"
            + " room): stopping 1 running action(s) before it ends, in 400 ms; their tasks run again once claimed, but at-most-once ones (`timeout: 0`) go to fault");
    assertThat(memory.get(id).orElseThrow().status()).isEqualTo(TaskStatus.COMPLETED);
    assertThat(memory.history(id)).as("the stopped attempt left nothing").hasSize(1);
    memory.close();
  }

  @Test
  void backoffDoublesUpToItsLongestWait() {
    Duration w = StoreOutage.FIRST_WAIT;
    List<Long> waits = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      waits.add(w.toMillis());
      w = StoreOutage.longer(w);
    }
    assertThat(waits).containsExactly(100L, 200L, 400L, 800L, 1600L, 3200L, 5000L, 5000L);
  }
}

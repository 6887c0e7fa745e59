package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.action.ActionOutcome;
import dev.fsm.action.ActionRunner;
import dev.fsm.operations.StoreOperations;
import dev.fsm.store.Store;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A runner that claims ahead of its idle workers (as on a shared store) while actions are short. */
class RunnerClaimAheadTest {

  private static final String MACHINE = """
      machine: quick
      states:
        a: {run: builtin:noop, on: {ok: b}}
        b: {run: builtin:noop, on: {ok: done}}
        done: {final: completed}
      """;

  @TempDir Path dir;
  private final InMemoryStore memory = new InMemoryStore();
  private final AtomicInteger claims = new AtomicInteger();
  private final List<String> problems = new CopyOnWriteArrayList<>();
  private Store store;
  private MachineLibrary machines;

  @BeforeEach
  void open() {
    // Counts the claims the runner makes; everything else goes straight to the store.
    store = (Store) Proxy.newProxyInstance(Store.class.getClassLoader(),
        new Class<?>[] {Store.class}, (proxy, method, args) -> {
          if (method.getName().equals("claim")) {
            claims.incrementAndGet();
          }
          try {
            return method.invoke(memory, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
    machines = new MachineLibrary(store, dir);
  }

  @AfterEach
  void close() {
    memory.close();
    assertThat(problems).isEmpty();
  }

  private Runner runner(RunnerOptions.Mode mode, ActionRunner actions) {
    return new Runner(store, machines, actions,
        RunnerOptions.of(2, mode, "runner:ahead").claimingAhead(8), Clock.systemUTC(),
        new RunListener() {
          @Override
          public void problem(String message) {
            problems.add(message);
          }
        });
  }

  private List<Task> start(int count) throws Exception {
    return MachineTasks.start(new StoreOperations(store, machines, Clock.systemUTC(), "user:test",
        OperatorListener.NONE, false), dir, MACHINE, count);
  }


  private static final ActionRunner OK = (request, attempt) -> new ActionOutcome.Event("ok", null);

  @Test
  void shortActionsAreClaimedInBatchesAndAllRun() throws Exception {
    List<Task> tasks = start(300);
    Runner runner = runner(RunnerOptions.Mode.UNTIL_IDLE, OK);
    runner.run();
    for (Task t : tasks) {
      assertThat(memory.get(t.id()).orElseThrow().status()).isEqualTo(TaskStatus.COMPLETED);
    }
    assertThat(runner.counters().transitions()).isEqualTo(600);
    // Claiming only for 2 idle workers takes at least 300 claims for 600 attempts.
    assertThat(claims.get()).isLessThan(200);
  }

  @Test
  void aStoppingRunnerLetsWhatItClaimedAheadGoAtOnce() throws Exception {
    List<Task> tasks = start(400);
    AtomicInteger ran = new AtomicInteger();
    Runner[] self = new Runner[1];
    ActionRunner stopsHalfway = (request, attempt) -> {
      if (ran.incrementAndGet() == 100) {
        self[0].stop();
      }
      return new ActionOutcome.Event("ok", null);
    };
    self[0] = runner(RunnerOptions.Mode.FOREVER, stopsHalfway);
    self[0].run();
    Clock clock = Clock.systemUTC();
    List<Task> left = tasks.stream().map(t -> memory.get(t.id()).orElseThrow())
        .filter(t -> t.status() != TaskStatus.COMPLETED).toList();
    assertThat(left).isNotEmpty();
    // Nothing the stopped runner claimed waits for its lease: another takes all at once.
    List<Task> taken = memory.claim("runner:next", 1000,
        clock.instant().plus(Duration.ofMillis(1)), Duration.ofSeconds(30));
    assertThat(taken).hasSameSizeAs(left);
  }
}

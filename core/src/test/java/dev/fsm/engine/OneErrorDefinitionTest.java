package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.action.ActionOutcome;
import dev.fsm.action.ActionRunner;
import dev.fsm.model.Action;
import dev.fsm.operations.StoreOperations;
import dev.fsm.store.ErrorQuery;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.AttemptErrors;
import dev.fsm.task.Task;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live line's count, {@code fsm stats}' error rate, {@code fsm errors} and the breaker count
 * the same errors ({@link AttemptErrors}): retried, routed by an {@code error} edge, and given up
 * on into an {@code exhausted} edge. The live line once said "0 errors" while a state's attempts
 * went into its error edge.
 */
class OneErrorDefinitionTest {

  private static final String MIXED = """
      machine: mixed
      states:
        first:
          run: builtin:noop
          on: {ok: charge}
        charge:
          run: builtin:fail card 4242 declined
          on: {ok: done, error: retry}
        retry:
          run: builtin:fail gateway 10.0.0.7 down
          retry: {max_errors: 2, window: 1h, backoff: 1ms}
          on: {ok: done, exhausted: review}
        review:
          on: {approve: done}
        done: {final: completed}
      """;

  @TempDir Path dir;
  private InMemoryStore store;
  private MachineLibrary machines;
  private StoreOperations control;
  private final List<String> problems = Collections.synchronizedList(new ArrayList<>());
  private final List<Breaker.Change> breakerChanges =
      Collections.synchronizedList(new ArrayList<>());

  /** {@code builtin:fail} errors with its arguments as the message; anything else is ok. */
  private final ActionRunner actions = (request, attempt) -> {
    Action.Builtin b = (Action.Builtin) request.action();
    return switch (b.builtin()) {
      case FAIL -> new ActionOutcome.Error(String.join(" ", b.args()));
      default -> new ActionOutcome.Event("ok", null);
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

  private Runner runner() {
    Runner runner = new Runner(store, machines, actions,
        RunnerOptions.of(2, RunnerOptions.Mode.UNTIL_IDLE, "runner:test"), Clock.systemUTC(),
        new RunListener() {
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

  @Test
  void theLiveLineStatsAndErrorsCountEveryAttemptErrorAlike() throws Exception {
    Runner runner = runner();
    List<Task> tasks = MachineTasks.start(control, dir, MIXED, 5);
    runner.run();

    // Per task: charge's error into its edge, retry's retried error and its exhausted one.
    long inHistories = 0;
    for (Task t : tasks) {
      assertThat(store.get(t.id()).orElseThrow().state()).isEqualTo("review");
      inHistories += store.history(t.id()).stream().filter(AttemptErrors::isError).count();
    }
    assertThat(inHistories).isEqualTo(15);
    assertThat(runner.counters().errors()).as("the live line's count").isEqualTo(15);

    Map<String, StateStats> stats = control.stats("mixed").stream()
        .collect(Collectors.toMap(StateStats::state, Function.identity()));
    assertThat(stats.get("first").errorRate()).isZero();
    assertThat(stats.get("charge").errorRate()).as("errors routed by an edge").isEqualTo(1.0);
    assertThat(stats.get("retry").errorRate()).as("retried and exhausted").isEqualTo(1.0);

    ErrorReport report = control.errors(new ErrorQuery(Instant.EPOCH, Optional.empty(),
        Optional.empty()), 10);
    assertThat(report.errors()).isEqualTo(15);
    assertThat(report.groups()).filteredOn(g -> g.state().equals("charge")).singleElement()
        .satisfies(g -> {
          assertThat(g.pattern()).isEqualTo("card <n> declined");
          assertThat(g.count()).isEqualTo(5);
          assertThat(g.tasks()).isEqualTo(5);
        });
    // Retried or given up, one cause is one group: the policy's decision is not grouped on.
    assertThat(report.groups()).filteredOn(g -> g.state().equals("retry")).singleElement()
        .satisfies(g -> {
          assertThat(g.pattern()).isEqualTo("gateway <ip> down");
          assertThat(g.count()).isEqualTo(10);
          assertThat(g.tasks()).isEqualTo(5);
          assertThat(g.example()).startsWith("gateway 10.0.0.7 down; exhausted, to `review`: ");
        });
    assertThat(report.groupCount()).isEqualTo(2);
  }

  @Test
  void errorsRoutedByAnErrorEdgeOpenTheBreaker() throws Exception {
    Runner runner = runner();
    MachineTasks.start(control, dir, """
        machine: routed
        breaker: {errors: 50%, min_attempts: 4, window: 1m, cooldown: 1h}
        states:
          charge:
            run: builtin:fail card declined
            on: {ok: done, error: declined}
          declined: {final: failed}
          done: {final: completed}
        """, 4);
    runner.run();

    assertThat(breakerChanges).isNotEmpty();
    Breaker.Change opened = breakerChanges.get(0);
    assertThat(opened.opened()).isTrue();
    assertThat(opened.status().attempts()).isEqualTo(4);
    assertThat(opened.status().errorRate()).isEqualTo(1.0);
    assertThat(runner.counters().errors()).isEqualTo(4);
  }
}

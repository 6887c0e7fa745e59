package dev.fsm.operations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.engine.Breaker;
import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.OperatorListener;
import dev.fsm.model.BreakerPolicy;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Command;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Change;
import dev.fsm.task.Transition;
import dev.fsm.task.Task;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link StoreOperations#breakers}: from the runner in this process, else replayed, or none. */
class BreakersTest {

  private static final Instant NOW = Instant.parse("2026-11-25T00:00:00Z");
  private static final String GUARDED = """
      machine: guarded
      breaker: {errors: 50%, min_attempts: 2, window: 1m, cooldown: 30s}
      states:
        a: {run: builtin:noop, on: {ok: b}}
        b: {final: completed}
      """;
  private static final String PLAIN = """
      machine: plain
      states:
        a: {run: builtin:noop, on: {ok: b}}
        b: {final: completed}
      """;

  @TempDir Path dir;

  private StoreOperations operations(InMemoryStore store, OperatorListener listener)
      throws Exception {
    MachineLibrary machines = new MachineLibrary(store, dir);
    StoreOperations ops = new StoreOperations(store, machines, Clock.fixed(NOW, ZoneOffset.UTC),
        "user:ann", listener, false);
    for (String yaml : List.of(GUARDED, PLAIN)) {
      String name = yaml.lines().findFirst().orElseThrow().substring(8).strip();
      Path file = dir.resolve(name + ".yaml");
      Files.writeString(file, yaml);
      ops.start(new MachineSource(name, file, yaml), List.of(new NewTask(null, null, null)));
    }
    return ops;
  }

  @Test
  void withoutARunnerABreakerIsClosedAndAMachineWithoutOneShowsADash() throws Exception {
    try (InMemoryStore store = new InMemoryStore()) {
      assertThat(operations(store, OperatorListener.NONE).breakers()).containsExactly(
          MachineBreaker.closed("guarded"), MachineBreaker.none("plain"));
    }
  }

  @Test
  void withoutARunnerABreakerIsShownAsTheRecentAttemptsOfEveryRunnerLeaveIt() throws Exception {
    try (InMemoryStore store = new InMemoryStore()) {
      StoreOperations ops = operations(store, OperatorListener.NONE);
      String id = store.list(new TaskQuery(Optional.of("guarded"), Optional.empty(),
          Optional.empty(), Optional.empty(), 10)).get(0).id();
      for (int second : List.of(10, 5)) {
        Instant at = NOW.minusSeconds(second);
        store.update(id, t -> new Change(t, new Transition(at, "a", "error", "a", 5,
            t.attempt(), "runner:1@h/w1", "card declined")));
      }

      assertThat(ops.breakers()).containsExactly(
          new MachineBreaker("guarded", "open", 1.0, 2, NOW.plusSeconds(25)),
          MachineBreaker.none("plain"));
    }
  }

  @Test
  void aRunnersBreakerIsShownAsItSeesIt() throws Exception {
    Breaker open = new Breaker(new BreakerPolicy(0.5, 2, Duration.ofMinutes(1),
        Duration.ofSeconds(30)));
    open.started("x", NOW);
    open.ended("x", true, NOW);
    open.started("y", NOW);
    open.ended("y", false, NOW);
    OperatorListener runner = new OperatorListener() {
      @Override
      public void commandApplied(Task after, Command command) {}

      @Override
      public void workArrived() {}

      @Override
      public Optional<Breaker> breaker(String machine) {
        return machine.equals("guarded") ? Optional.of(open) : Optional.empty();
      }
    };
    try (InMemoryStore store = new InMemoryStore()) {
      assertThat(operations(store, runner).breakers()).containsExactly(
          new MachineBreaker("guarded", "open", 0.5, 2, NOW.plusSeconds(30)),
          MachineBreaker.none("plain"));
    }
  }
}

package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.engine.StateStats;
import dev.fsm.store.memory.InMemoryStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code fsm stats} durations, error rates and timeouts come from the newest tasks. */
class StateStatisticsTest {

  @TempDir Path dir;
  private final InMemoryStore store = new InMemoryStore();
  private final PastRuns past = new PastRuns(store);
  private MachineLibrary machines;

  @BeforeEach
  void register() {
    store.register("order", """
        machine: order
        states:
          pay: {run: builtin:noop, on: {ok: done}}
          done: {final: completed}
        """, PastRuns.T0);
    machines = new MachineLibrary(store, dir);
  }

  @Test
  void theNewestTasksAreTheOnesSampled() {
    for (int i = 0; i < 10; i++) {
      String id = "t-" + i;
      past.task(id, "order", "done");
      if (i < 5) {
        // The oldest tasks: each failed once, then ran slowly.
        past.ran(id, "pay", "error", "pay", i, 100);
        past.ran(id, "pay", "ok", "done", i + 1, 9000);
      } else {
        past.ran(id, "pay", "ok", "done", i, 1000);
      }
    }

    StateStats newest = pay(StateStatistics.compute(store, machines, "order", 5));
    assertThat(newest.samples()).isEqualTo(5);
    assertThat(newest.p99()).isEqualTo(Duration.ofSeconds(1));
    assertThat(newest.errorRate()).isZero();
    assertThat(newest.timeout()).isEqualTo("p95: 5m until 20 samples (5 so far)");

    StateStats all = pay(StateStatistics.compute(store, machines, "order", 10));
    assertThat(all.samples()).isEqualTo(10);
    assertThat(all.p99()).isEqualTo(Duration.ofSeconds(9));
    assertThat(all.errorRate()).isEqualTo(5.0 / 15);
  }

  @Test
  void theTimeoutInForceComesFromTheNewestWindowOfSuccesses() {
    for (int i = 0; i < Timeouts.WINDOW + 50; i++) {
      String id = String.format("t-%03d", i);
      past.task(id, "order", "done");
      past.ran(id, "pay", "ok", "done", i, i < 50 ? 60_000 : 1000);
    }

    StateStats stats = pay(StateStatistics.compute(store, machines, "order"));
    assertThat(stats.samples()).isEqualTo(Timeouts.WINDOW + 50);
    assertThat(stats.p99()).isEqualTo(Duration.ofMinutes(1));
    // Read newest first, yet the window is the last 200 to run, not the last 200 read.
    assertThat(stats.timeout()).isEqualTo("p95 = 1s (200 samples)");
  }

  private static StateStats pay(List<StateStats> stats) {
    return stats.stream().filter(s -> s.state().equals("pay")).findFirst().orElseThrow();
  }
}

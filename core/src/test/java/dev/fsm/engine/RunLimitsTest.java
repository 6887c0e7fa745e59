package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.action.ActionOutcome;
import dev.fsm.action.ActionRunner;
import dev.fsm.operations.StoreOperations;
import dev.fsm.store.BreakerNews;
import dev.fsm.store.memory.InMemoryStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A runner's limits follow other runners' breaker news, whenever it comes. */
class RunLimitsTest {

  private static final String FLAKY = """
      machine: flaky
      breaker: {errors: 50%, min_attempts: 4, window: 1m, cooldown: 1h}
      states:
        a:
          run: builtin:fail down
          retry: {max_errors: 2, window: 1h, backoff: 1ms}
          on: {ok: done}
        done: {final: completed}
      """;

  @TempDir Path dir;
  private InMemoryStore store;
  private MachineLibrary machines;
  private RunLimits limits;
  private final List<Breaker.Change> changes = new ArrayList<>();

  @BeforeEach
  void open() throws Exception {
    store = new InMemoryStore();
    machines = new MachineLibrary(store, dir);
    MachineTasks.start(new StoreOperations(store, machines, Clock.systemUTC(), "user:test",
        OperatorListener.NONE, false), dir, FLAKY, 2);
    limits = new RunLimits(store, machines, new RunListener() {
      @Override
      public void breaker(String machine, Breaker.Change change) {
        changes.add(change);
      }
    }, Clock.systemUTC(), Set.of());
  }

  @AfterEach
  void close() {
    store.close();
  }

  private static BreakerNews opened() {
    return new BreakerNews("flaky", true, Instant.now().plus(Duration.ofHours(1)),
        Duration.ofHours(1), 1.0, 4);
  }

  private Breaker.Phase phase() {
    return limits.breakers().get("flaky").status(Instant.now()).phase();
  }

  @Test
  void newsHeardAfterTheRulesAreReadOpensTheBreaker() {
    limits.refresh();
    assertThat(phase()).isEqualTo(Breaker.Phase.CLOSED);
    assertThat(limits.heard(opened())).isTrue();
    assertThat(phase()).isEqualTo(Breaker.Phase.OPEN);
  }

  @Test
  void newsHeardBeforeTheRulesAreReadIsFollowedOnceTheyAre() {
    // As when the news comes while a refresh is still seeding the breaker: no breaker yet.
    assertThat(limits.heard(opened())).isFalse();
    limits.refresh();
    assertThat(phase()).isEqualTo(Breaker.Phase.OPEN);
    assertThat(limits.heard(BreakerNews.closed("flaky"))).isTrue();
    assertThat(phase()).isEqualTo(Breaker.Phase.CLOSED);
  }

  @Test
  void newsThatHasRunOutIsNotFollowed() {
    limits.heard(new BreakerNews("flaky", true, Instant.now().minusSeconds(1),
        Duration.ofHours(1), 1.0, 4));
    limits.refresh();
    assertThat(phase()).isEqualTo(Breaker.Phase.CLOSED);
  }

  @Test
  void afterMissedNewsTheBreakerFollowsWhatOtherRunnersAttemptsSay() {
    limits.refresh();
    // Another runner fails every attempt and opens its breaker; its news is not heard here.
    ActionRunner failing = (request, attempt) -> new ActionOutcome.Error("down");
    new Runner(store, machines, failing, RunnerOptions.of(1, RunnerOptions.Mode.UNTIL_IDLE,
        "runner:other"), Clock.systemUTC(), new RunListener() {}).run();
    assertThat(phase()).isEqualTo(Breaker.Phase.CLOSED);

    limits.reseed();
    assertThat(phase()).isEqualTo(Breaker.Phase.OPEN);
    assertThat(changes).singleElement().extracting(Breaker.Change::opened).isEqualTo(true);
    limits.reseed();
    assertThat(changes).hasSize(1);
  }
}

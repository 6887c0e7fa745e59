package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.model.State;
import dev.fsm.model.Timeout;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.validate.FileReport;
import dev.fsm.validate.Validator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The timeout in force: fixed, none, or a percentile of recent successes within bounds, seeded
 * from the store's newest histories.
 */
class TimeoutsTest {

  private static final State PAY = state("pay");
  private static final State SHIP = state("ship");

  private final InMemoryStore store = new InMemoryStore();

  @Test
  void fixedAndNeverTimeoutsAreWhatTheMachineSays() {
    DurationSamples none = new DurationSamples(10);
    assertThat(Timeouts.limit(new Timeout.Fixed(Duration.ofSeconds(30)), none))
        .isEqualTo(new Timeouts.Limit(Duration.ofSeconds(30), "30s"));
    assertThat(Timeouts.limit(new Timeout.Never(), none).limit()).isNull();
    assertThat(Timeouts.limit(new Timeout.Never(), none).text()).contains("at-most-once");
  }

  @Test
  void aFullWindowIsComputedAgainOnlyAfterAFewNewSamples() {
    Timeouts timeouts = new Timeouts();
    for (int i = 0; i < Timeouts.WINDOW; i++) {
      timeouts.succeeded("order", PAY, Duration.ofSeconds(2));
    }
    assertThat(timeouts.limit("order", PAY).limit()).isEqualTo(Duration.ofSeconds(2));
    for (int i = 0; i < Timeouts.STALE_SAMPLES - 1; i++) {
      timeouts.succeeded("order", PAY, Duration.ofSeconds(9));
    }
    assertThat(timeouts.limit("order", PAY).limit()).as("a few samples later").isEqualTo(
        Duration.ofSeconds(2));
    for (int i = 0; i < Timeouts.WINDOW; i++) {
      timeouts.succeeded("order", PAY, Duration.ofSeconds(9));
    }
    assertThat(timeouts.limit("order", PAY))
        .isEqualTo(new Timeouts.Limit(Duration.ofSeconds(9), "p95 = 9s (200 samples)"));
  }

  @Test
  void aPercentileUsesTheDefaultUntilEnoughSamplesExist() {
    DurationSamples samples = new DurationSamples(Timeouts.WINDOW);
    for (int i = 0; i < Timeouts.MIN_SAMPLES - 1; i++) {
      samples.add(Duration.ofSeconds(3));
    }
    Timeouts.Limit early = Timeouts.limit(new Timeout.Percentile(95), samples);
    assertThat(early.limit()).isEqualTo(Timeouts.DEFAULT);
    assertThat(early.text()).isEqualTo("p95: 5m until 20 samples (19 so far)");
    samples.add(Duration.ofSeconds(3));
    assertThat(Timeouts.limit(new Timeout.Percentile(95), samples))
        .isEqualTo(new Timeouts.Limit(Duration.ofSeconds(3), "p95 = 3s (20 samples)"));
  }

  @Test
  void aPercentileIsTheNearestRankOfRecentSuccessesWithinTheFloorAndCeiling() {
    DurationSamples samples = new DurationSamples(Timeouts.WINDOW);
    for (int i = 1; i <= 100; i++) {
      samples.add(Duration.ofSeconds(i));
    }
    assertThat(Timeouts.limit(new Timeout.Percentile(95), samples).limit())
        .isEqualTo(Duration.ofSeconds(95));
    assertThat(Timeouts.limit(new Timeout.Percentile(50), samples).limit())
        .isEqualTo(Duration.ofSeconds(50));

    DurationSamples fast = new DurationSamples(Timeouts.WINDOW);
    DurationSamples slow = new DurationSamples(Timeouts.WINDOW);
    for (int i = 0; i < 50; i++) {
      fast.add(Duration.ofMillis(20));
      slow.add(Duration.ofHours(3));
    }
    assertThat(Timeouts.limit(new Timeout.Percentile(99), fast).limit()).isEqualTo(Timeouts.FLOOR);
    assertThat(Timeouts.limit(new Timeout.Percentile(99), slow).limit())
        .isEqualTo(Timeouts.CEILING);
  }

  @Test
  void onlyTheLastWindowOfSamplesCounts() {
    DurationSamples samples = new DurationSamples(4);
    for (long s : new long[] {100, 100, 100, 100, 2, 2, 2, 2}) {
      samples.add(Duration.ofSeconds(s));
    }
    assertThat(samples.count()).isEqualTo(4);
    assertThat(samples.percentile(99)).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void theRunnersTimeoutsKeepSamplesPerMachineAndState() {
    Timeouts timeouts = new Timeouts();
    for (int i = 0; i < 30; i++) {
      timeouts.succeeded("order", PAY, Duration.ofSeconds(2));
    }
    assertThat(timeouts.samplesOf("order", "pay").count()).isEqualTo(30);
    assertThat(timeouts.samplesOf("order", "ship").count()).isZero();
    assertThat(timeouts.samplesOf("crawl", "pay").count()).isZero();
  }

  @Test
  void aRunnersAdaptiveTimeoutIsSeededFromTheNewestSuccessesInTheStore() {
    PastRuns past = new PastRuns(store);
    for (int i = 0; i < 300; i++) {
      String id = String.format("t-%03d", i);
      past.task(id, "order", "done");
      // The oldest hundred ran slowly; the window of 200 holds only the newer ones.
      past.ran(id, "pay", "ok", "done", i, i < 100 ? 50_000 : (i % 10 + 1) * 1000L);
      if (i >= 100 && i % 10 == 0) {
        // Newer than every success and slow (or, for the command, instant): any of these
        // counted would raise the p95 (or lower the p5).
        for (String notASuccess : List.of("start", "wait", "error", "timeout", "sleep",
            "release")) {
          past.ran(id, "pay", notASuccess, "pay", 1000 + i, 300_000);
        }
        past.ran(id, "ship", "ok", "done", 1000 + i, 300_000);
        past.commanded(id, "pay", "ok", 1000 + i);
        past.task(id + "-crawl", "crawl", "done");
        past.ran(id + "-crawl", "pay", "ok", "done", 1000 + i, 300_000);
      }
    }
    Timeouts timeouts = new Timeouts(RecentSuccesses.seed(store, failOnProblem()));

    assertThat(timeouts.limit("order", PAY))
        .isEqualTo(new Timeouts.Limit(Duration.ofSeconds(10), "p95 = 10s (200 samples)"));
    assertThat(timeouts.samplesOf("order", "pay").percentile(5)).isEqualTo(Duration.ofSeconds(1));
    assertThat(timeouts.limit("crawl", PAY))
        .isEqualTo(new Timeouts.Limit(Duration.ofMinutes(5), "p95 = 5m (20 samples)"));
  }

  @Test
  void aStateWithNoSuccessesInTheStoreKeepsTheDefault() {
    PastRuns past = new PastRuns(store);
    past.task("t-1", "order", "pay");
    past.ran("t-1", "pay", "error", "pay", 1, 2000);
    past.commanded("t-1", "pay", "pause", 2);
    Timeouts timeouts = new Timeouts(RecentSuccesses.seed(store, failOnProblem()));

    assertThat(timeouts.limit("order", PAY)).isEqualTo(new Timeouts.Limit(Timeouts.DEFAULT,
        "p95: 5m until 20 samples (0 so far)"));
    assertThat(timeouts.limit("refund", PAY).limit()).isEqualTo(Timeouts.DEFAULT);
  }

  @Test
  void seedingReadsTheNewestTasksFirstAndStopsAtEitherBound() {
    PastRuns past = new PastRuns(store);
    for (int i = 0; i < 10; i++) {
      String id = "t-" + i;
      past.task(id, "order", "done");
      // The five oldest tasks ran last, and slower: found only if the read goes on to them.
      past.ran(id, "pay", "ok", "done", i < 5 ? 100 + i : 10 - i, i < 5 ? 9000 : 1000);
    }

    assertThat(RecentSuccesses.read(store, "order", PAY, 5, 2000)).as("stops at 5 samples")
        .containsExactly(seconds(1, 1, 1, 1, 1));
    assertThat(RecentSuccesses.read(store, "order", PAY, 200, 3)).as("stops at 3 tasks")
        .containsExactly(seconds(1, 1, 1));
    assertThat(RecentSuccesses.read(store, "order", PAY, 200, 2000)).as("in time order")
        .containsExactly(seconds(1, 1, 1, 1, 1, 9, 9, 9, 9, 9));

    past.task("u-1", "loop", "done");
    for (int i = 1; i <= 5; i++) {
      past.ran("u-1", "pay", "ok", "pay", i, i * 1000L);
    }
    assertThat(RecentSuccesses.read(store, "loop", PAY, 3, 10))
        .as("the newest of one task's many").containsExactly(seconds(3, 4, 5));
  }

  @Test
  void seedingHappensOncePerStateAndOnlyForAdaptiveTimeouts() throws Exception {
    Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
    Timeouts timeouts = new Timeouts((machine, state) -> {
      calls.computeIfAbsent(machine + "/" + state.name(), k -> new AtomicInteger())
          .incrementAndGet();
      return Collections.nCopies(Timeouts.MIN_SAMPLES, Duration.ofSeconds(2));
    });
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      CountDownLatch go = new CountDownLatch(1);
      List<Future<Timeouts.Limit>> limits = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        State state = i % 2 == 0 ? PAY : SHIP;
        limits.add(pool.submit(() -> {
          go.await();
          return timeouts.limit("order", state);
        }));
      }
      go.countDown();
      for (int i = 0; i < limits.size(); i++) {
        assertThat(limits.get(i).get(10, TimeUnit.SECONDS).text())
            .isEqualTo(i % 2 == 0 ? "p95 = 2s (20 samples)" : "10s");
      }
    } finally {
      pool.shutdownNow();
    }
    timeouts.succeeded("order", PAY, Duration.ofSeconds(2));
    assertThat(calls).containsOnlyKeys("order/pay");
    assertThat(calls.get("order/pay")).hasValue(1);
  }

  @Test
  void aSuccessBeforeTheFirstLimitStillComesAfterTheSeed() {
    Timeouts timeouts = new Timeouts(
        (machine, state) -> Collections.nCopies(Timeouts.WINDOW, Duration.ofSeconds(1)));
    for (int i = 0; i < 10; i++) {
      timeouts.succeeded("order", PAY, Duration.ofSeconds(50));
    }
    // Had the seed come after them, these ten would have been pushed out of the window.
    assertThat(timeouts.samplesOf("order", "pay").percentile(99))
        .isEqualTo(Duration.ofSeconds(50));
  }

  @Test
  void aStoreThatCannotBeReadLeavesTheDefaultAndSaysSo() {
    List<String> problems = new ArrayList<>();
    store.close();
    Timeouts timeouts = new Timeouts(RecentSuccesses.seed(store, new RunListener() {
      @Override
      public void problem(String message) {
        problems.add(message);
      }
    }));

    assertThat(timeouts.limit("order", PAY).limit()).isEqualTo(Timeouts.DEFAULT);
    assertThat(timeouts.limit("order", PAY).limit()).isEqualTo(Timeouts.DEFAULT);
    assertThat(problems).singleElement().asString().contains("`pay`").contains("`order`")
        .contains("default");
  }

  private static RunListener failOnProblem() {
    return new RunListener() {
      @Override
      public void problem(String message) {
        throw new AssertionError(message);
      }
    };
  }

  private static Duration[] seconds(long... each) {
    return Arrays.stream(each).mapToObj(Duration::ofSeconds).toArray(Duration[]::new);
  }

  private static State state(String name) {
    FileReport report = Validator.check(Path.of("order.yaml"), """
        machine: order
        states:
          pay: {run: builtin:noop, on: {ok: ship}}
          ship: {run: builtin:noop, timeout: 10s, on: {ok: done}}
          done: {final: completed}
        """);
    assertThat(report.diagnostics()).filteredOn(d -> d.isError()).isEmpty();
    return report.machine().orElseThrow().state(name).orElseThrow();
  }
}

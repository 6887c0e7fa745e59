package dev.fsm.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.UsageException;
import dev.fsm.action.ActionOutcome;
import dev.fsm.action.ActionRunner;
import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.RunListener;
import dev.fsm.engine.Runner;
import dev.fsm.engine.RunnerOptions;
import dev.fsm.model.Action;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.StoreOperations;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Task;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A runner's metrics, fed by a real runner on an in-memory store and scraped over HTTP. */
class RunMetricsTest {

  private static final int TASKS = 6;

  /** first succeeds; flaky fails twice, then its exhausted edge leads to slow, which times out. */
  private static final String MACHINE = """
      machine: mix
      breaker: {errors: 50%, min_attempts: 1000, window: 1m, cooldown: 30s}
      states:
        first: {run: builtin:noop, on: {ok: flaky}}
        flaky:
          run: builtin:fail upstream said no
          retry: {max_errors: 2, window: 1h, backoff: 10ms}
          on: {ok: done, exhausted: slow}
        slow: {run: builtin:sleep 10s, timeout: 50ms, on: {ok: done, timeout: done}}
        done: {final: completed}
      """;

  @TempDir Path dir;
  private InMemoryStore store;
  private MachineLibrary machines;
  private final List<String> problems = Collections.synchronizedList(new ArrayList<>());

  /** Built-ins as the real ones run them; {@code sleep} ends early when stopped. */
  private final ActionRunner fake = (request, attempt) -> {
    Action.Builtin b = (Action.Builtin) request.action();
    return switch (b.builtin()) {
      case NOOP -> new ActionOutcome.Event("ok", null);
      case EMIT -> new ActionOutcome.Event(b.args().get(0), null);
      case FAIL -> new ActionOutcome.Error(String.join(" ", b.args()));
      case SLEEP -> {
        CountDownLatch stopped = new CountDownLatch(1);
        attempt.onStop(r -> stopped.countDown());
        try {
          if (stopped.await(10, TimeUnit.SECONDS)) {
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

  @Test
  void attemptsErrorsTimeoutsTransitionsGaugesAndCommitsAreServedInTheTextFormat()
      throws Exception {
    RunMetrics metrics = new RunMetrics();
    RunListener listener = RunListener.both(metrics, new RunListener() {
      @Override
      public void problem(String message) {
        problems.add(message);
      }
    });
    Runner runner = new Runner(store, machines, fake, RunnerOptions.of(3,
        RunnerOptions.Mode.UNTIL_IDLE, "runner:test").withShutdownGrace(Duration.ofMillis(200)),
        Clock.systemUTC(), listener);
    StoreOperations control = new StoreOperations(store, machines, Clock.systemUTC(),
        "user:test", runner, false);
    List<Task> tasks = start(control);
    metrics.watch(runner);
    try (MetricsServer server = MetricsServer.start(new MetricsAddress("127.0.0.1", 0),
        metrics.registry());
        StoreGauges gauges = StoreGauges.start(metrics.registry(), control, problems::add)) {
      assertThat(server.url()).isEqualTo("http://127.0.0.1:" + server.port() + "/metrics");
      Exposition before = Exposition.scrape(server.url());
      assertThat(before.sum("fsm_workers")).isEqualTo(3);
      assertThat(before.sum("fsm_attempts_total")).isZero();

      runner.run();
      gauges.read();
      Exposition after = Exposition.scrape(server.url());

      Map<String, String> mix = Map.of("machine", "mix");
      assertThat(after.type("fsm_attempts_total")).contains("counter");
      assertThat(after.sum("fsm_attempts_total", Map.of("machine", "mix", "state", "first")))
          .isEqualTo(TASKS);
      assertThat(after.sum("fsm_attempts_total", Map.of("machine", "mix", "state", "flaky")))
          .isEqualTo(2 * TASKS);
      assertThat(after.sum("fsm_errors_total", Map.of("machine", "mix", "state", "flaky")))
          .isEqualTo(2 * TASKS);
      assertThat(after.sum("fsm_errors_total", Map.of("machine", "mix", "state", "slow")))
          .isEqualTo(TASKS);
      assertThat(after.sum("fsm_timeouts_total", mix)).isEqualTo(TASKS);
      assertThat(after.sum("fsm_errors_total", Map.of("machine", "mix", "state", "first")))
          .isZero();
      assertThat(after.sum("fsm_transitions_total",
          Map.of("machine", "mix", "state", "flaky", "event", "exhausted"))).isEqualTo(TASKS);
      assertThat(after.sum("fsm_transitions_total")).isEqualTo(runnerEntries(tasks));

      assertThat(after.type("fsm_attempt_duration_seconds")).contains("histogram");
      assertThat(after.sum("fsm_attempt_duration_seconds_count", mix)).isEqualTo(4 * TASKS);
      List<String> bounds = after.find("fsm_attempt_duration_seconds_bucket",
              Map.of("machine", "mix", "state", "slow")).stream()
          .map(s -> s.labels().get("le")).toList();
      List<String> declared = new ArrayList<>();
      RunMetrics.ATTEMPT_BUCKETS.forEach(b -> declared.add(le(b)));
      declared.add("+Inf");
      assertThat(bounds).containsExactlyElementsOf(declared);
      // The timed-out attempts ran their 50 ms: none in a bucket under it.
      assertThat(after.sum("fsm_attempt_duration_seconds_bucket",
          Map.of("machine", "mix", "state", "slow", "le", "0.025"))).isZero();

      assertThat(after.sum("fsm_store_commit_seconds_count")).isPositive();
      assertThat(after.sum("fsm_tasks", Map.of("machine", "mix", "status", "completed")))
          .isEqualTo(TASKS);
      assertThat(after.find("fsm_tasks", mix)).hasSize(8);
      assertThat(after.sum("fsm_tasks", mix)).isEqualTo(TASKS);
      assertThat(after.sum("fsm_breaker_state",
          Map.of("machine", "mix", "state", "closed"))).isEqualTo(1);
      assertThat(after.sum("fsm_breaker_state", mix)).isEqualTo(1);
      assertThat(after.sum("fsm_running_actions")).isZero();
      assertThat(after.sum("fsm_leases_held")).isZero();
    }
  }

  @Test
  void aPortInUseOrAForeignAddressIsRefusedAndAnUnknownHostIsAUsageError() throws IOException {
    RunMetrics metrics = new RunMetrics();
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      assertThatThrownBy(() -> MetricsServer.start(new MetricsAddress("127.0.0.1", port),
          metrics.registry()))
          .isExactlyInstanceOf(FsmException.class)
          .hasMessage("--metrics 127.0.0.1:" + port + ": port " + port + " is in use; pick"
              + " another port, or port 0 for any free one");
    }
    // 192.0.2.0/24 is kept for documentation: no machine has it.
    assertThatThrownBy(() -> MetricsServer.start(new MetricsAddress("192.0.2.1", 0),
        metrics.registry()))
        .isExactlyInstanceOf(FsmException.class)
        .hasMessage("--metrics 192.0.2.1:0: `192.0.2.1` is not an address of this machine; give"
            + " one of its addresses, or :0 for every interface");
    assertThatThrownBy(() -> MetricsServer.start(new MetricsAddress("no-such-host.invalid", 0),
        metrics.registry()))
        .isInstanceOf(UsageException.class)
        .hasMessage("--metrics no-such-host.invalid:0: unknown host `no-such-host.invalid`; give"
            + " a host name or address of this machine, or :0 for every interface");
  }

  @Test
  void clientsThatConnectAndStallDoNotBlockScrapesForLong() throws IOException {
    RunMetrics metrics = new RunMetrics();
    List<Socket> stalled = new ArrayList<>();
    try (MetricsServer server = MetricsServer.start(new MetricsAddress("127.0.0.1", 0),
        metrics.registry())) {
      // More than the server's threads, each holding one with half a request line.
      for (int i = 0; i < 12; i++) {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port());
        s.getOutputStream().write("GE".getBytes(StandardCharsets.US_ASCII));
        s.getOutputStream().flush();
        stalled.add(s);
      }
      assertThat(Exposition.scrape(server.url()).sum("fsm_store_commit_seconds_count")).isZero();
    } finally {
      for (Socket s : stalled) {
        s.close();
      }
    }
  }

  @Test
  void theClientsOwnSettingsFromOutsideChangeNeitherThePortNorTheBuckets() {
    String port = "io.prometheus.exporter.http_server.port";
    String buckets = "io.prometheus.metrics.histogram_classic_upper_bounds";
    System.setProperty(port, "9");
    System.setProperty(buckets, "1,2");
    try (MetricsServer server = MetricsServer.start(new MetricsAddress("127.0.0.1", 0),
        new RunMetrics().registry())) {
      assertThat(server.port()).isNotEqualTo(9);
      Exposition served = Exposition.scrape(server.url());
      assertThat(served.find("fsm_store_commit_seconds_bucket", Map.of()))
          .hasSize(RunMetrics.COMMIT_BUCKETS.size() + 1);
    } finally {
      System.clearProperty(port);
      System.clearProperty(buckets);
    }
  }

  /** How the text format writes a bucket bound: as a float, {@code 1.0}, {@code 0.005}. */
  private static String le(double bound) {
    return Double.toString(bound);
  }

  private long runnerEntries(List<Task> tasks) {
    long n = 0;
    for (Task t : tasks) {
      for (Transition e : store.history(t.id())) {
        n += e.by().startsWith("runner:") ? 1 : 0;
      }
    }
    return n;
  }

  private List<Task> start(StoreOperations control) throws IOException {
    Path file = dir.resolve("mix.yaml");
    Files.writeString(file, MACHINE);
    List<NewTask> tasks = new ArrayList<>();
    for (int i = 0; i < TASKS; i++) {
      tasks.add(new NewTask(null, "{}", null));
    }
    return control.start(new MachineSource("mix", file, MACHINE), tasks);
  }
}

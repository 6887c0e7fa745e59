package dev.fsm.metrics;

import dev.fsm.Timers;
import dev.fsm.engine.Breaker;
import dev.fsm.engine.ShownStatuses;
import dev.fsm.operations.MachineBreaker;
import dev.fsm.operations.Operations;
import dev.fsm.store.TaskCount;
import dev.fsm.task.ShownStatus;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The store-wide gauges: tasks by machine and status, as {@code fsm machines} and {@code fsm
 * stats} count them, and each machine's circuit breaker. They are read from the store on a
 * thread of their own every {@link #EVERY}, so a scrape never waits for the store (counting a
 * database's tasks may take a while); every runner of a store shows the same values.
 */
public final class StoreGauges implements AutoCloseable {

  /** How often the figures are read from the store. */
  public static final Duration EVERY = Duration.ofSeconds(5);

  private static final String MAXED = " Store-wide: the same on every runner (take the max);"
      + " read from the store every " + EVERY.toSeconds() + " s.";

  /** What a scrape shows; replaced whole by each reading. */
  private record Figures(Map<String, Map<ShownStatus, Long>> tasks,
      Map<String, Breaker.Phase> breakers) {}

  private final Operations operations;
  private final Consumer<String> problems;
  private final ScheduledExecutorService timer;
  private volatile Figures figures = new Figures(Map.of(), Map.of());
  private volatile String lastProblem;

  private StoreGauges(Operations operations, Consumer<String> problems) {
    this.operations = operations;
    this.problems = problems;
    this.timer = Timers.daemon("fsm-metrics-store");
  }

  /**
   * Registers the gauges in {@code registry} and reads them from {@code operations} now and every
   * {@link #EVERY}; a reading that fails is told to {@code problems} once (until one succeeds)
   * and the gauges keep their last values.
   */
  public static StoreGauges start(PrometheusRegistry registry, Operations operations,
      Consumer<String> problems) {
    StoreGauges gauges = new StoreGauges(operations, problems);
    GaugeWithCallback.builder(RunMetrics.CONFIG)
        .name("fsm_tasks")
        .help("Tasks by machine and status, as fsm machines and fsm stats count them." + MAXED)
        .labelNames("machine", "status")
        .callback(c -> gauges.figures.tasks().forEach((machine, counts) -> {
          for (ShownStatus s : ShownStatus.values()) {
            c.call(counts.getOrDefault(s, 0L), machine, s.word());
          }
        }))
        .register(registry);
    GaugeWithCallback.builder(RunMetrics.CONFIG)
        .name("fsm_breaker_state")
        .help("Circuit breaker of each machine that has one: 1 for the state it is in (closed,"
            + " open, half-open), 0 for the others." + MAXED)
        .labelNames("machine", "state")
        .callback(c -> gauges.figures.breakers().forEach((machine, phase) -> {
          for (Breaker.Phase p : Breaker.Phase.values()) {
            c.call(p == phase ? 1 : 0, machine, p.word());
          }
        }))
        .register(registry);
    gauges.timer.scheduleWithFixedDelay(gauges::read, 0, EVERY.toMillis(),
        TimeUnit.MILLISECONDS);
    return gauges;
  }

  /** Reads the figures now, on the caller's thread; for tests and a last reading. */
  void read() {
    try {
      figures = new Figures(tasks(operations.counts()), breakers(operations.breakers()));
      lastProblem = null;
    } catch (RuntimeException e) {
      String problem = "metrics: could not read task counts from the store (" + e.getMessage()
          + "); fsm_tasks and fsm_breaker_state keep their last values";
      if (!problem.equals(lastProblem)) {
        lastProblem = problem;
        problems.accept(problem);
      }
    }
  }

  private Map<String, Map<ShownStatus, Long>> tasks(List<TaskCount> counts) {
    ShownStatuses shown = new ShownStatuses(operations::versions);
    Map<String, Map<ShownStatus, Long>> out = new TreeMap<>();
    for (TaskCount c : counts) {
      out.computeIfAbsent(c.machine(), k -> new EnumMap<>(ShownStatus.class))
          .merge(shown.of(c), c.count(), Long::sum);
    }
    return out;
  }

  private static Map<String, Breaker.Phase> breakers(List<MachineBreaker> breakers) {
    Map<String, Breaker.Phase> out = new TreeMap<>();
    for (MachineBreaker b : breakers) {
      for (Breaker.Phase p : Breaker.Phase.values()) {
        if (p.word().equals(b.state())) {
          out.put(b.machine(), p);
        }
      }
    }
    return out;
  }

  /**
   * Stops reading, waiting for a reading under way: interrupting it could close the embedded
   * store's files under the runner (an interrupted NIO channel closes).
   */
  @Override
  public void close() {
    Timers.stop(timer, Duration.ofSeconds(30));
  }
}

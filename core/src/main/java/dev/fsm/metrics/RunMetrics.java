package dev.fsm.metrics;

import dev.fsm.engine.AttemptEnd;
import dev.fsm.engine.RunListener;
import dev.fsm.engine.Runner;
import dev.fsm.task.Change;
import dev.fsm.task.Transition;
import io.prometheus.metrics.config.PrometheusProperties;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.time.Duration;
import java.util.List;

/**
 * What one runner did, as Prometheus metrics: counters and histograms fed by the runner's events
 * (the engine knows nothing of Prometheus), and gauges read from the runner when scraped.
 * Counters and histograms count this runner's work, so they are summed across runners; the
 * store-wide gauges of {@link StoreGauges} are the same on every runner.
 */
public final class RunMetrics implements RunListener {

  /**
   * Bucket bounds of attempt durations, in seconds: actions run from milliseconds (built-ins,
   * quick calls) to hours (batch jobs), so the buckets span both.
   */
  public static final List<Double> ATTEMPT_BUCKETS = List.of(0.005, 0.01, 0.025, 0.05, 0.1,
      0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0, 300.0, 600.0, 1800.0, 3600.0, 7200.0,
      14400.0);

  /**
   * Bucket bounds of store commits, in seconds: an fsync of the embedded journal takes about a
   * millisecond, a PostgreSQL round trip a few, an outage's retries up to seconds.
   */
  public static final List<Double> COMMIT_BUCKETS = List.of(0.0005, 0.001, 0.0025, 0.005, 0.01,
      0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0);

  /**
   * The client's settings, fixed here: by default it also reads a prometheus.properties file,
   * system properties and environment variables, which could change the documented buckets or
   * the port given with --metrics.
   */
  static final PrometheusProperties CONFIG = PrometheusProperties.builder().build();

  private static final String SUMMED = " Counts this runner's work: sum across runners.";
  private static final String OWN = " This runner's: sum across runners.";

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Counter transitions = Counter.builder(CONFIG)
      .name("fsm_transitions_total")
      .help("History entries this runner recorded, by the state left and the event (moves,"
          + " errors, sleeps, releases)." + SUMMED)
      .labelNames("machine", "state", "event")
      .register(registry);
  private final Counter attempts = Counter.builder(CONFIG)
      .name("fsm_attempts_total")
      .help("Attempts of a state's action that ended and were recorded." + SUMMED)
      .labelNames("machine", "state")
      .register(registry);
  private final Counter errors = Counter.builder(CONFIG)
      .name("fsm_errors_total")
      .help("Attempts that ended in an error or a timeout, whether the retry policy retried it,"
          + " an edge routed it or it failed the task." + SUMMED)
      .labelNames("machine", "state")
      .register(registry);
  private final Counter timeouts = Counter.builder(CONFIG)
      .name("fsm_timeouts_total")
      .help("Attempts stopped by their state's timeout (also counted in fsm_errors_total)."
          + SUMMED)
      .labelNames("machine", "state")
      .register(registry);
  private final Histogram durations = Histogram.builder(CONFIG)
      .name("fsm_attempt_duration_seconds")
      .help("How long the actions of ended attempts ran, successes and errors alike." + SUMMED)
      .labelNames("machine", "state")
      .classicUpperBounds(bounds(ATTEMPT_BUCKETS))
      .classicOnly()
      .register(registry);
  private final Histogram commits = Histogram.builder(CONFIG)
      .name("fsm_store_commit_seconds")
      .help("How long the runner's writes of outcomes to the store took: one batch of recorded"
          + " outcomes, made durable together, or one record." + SUMMED)
      .classicUpperBounds(bounds(COMMIT_BUCKETS))
      .classicOnly()
      .register(registry);

  /** The registry the metrics are in, for {@link MetricsServer}. */
  public PrometheusRegistry registry() {
    return registry;
  }

  /**
   * Adds the gauges read from {@code runner} at each scrape: its workers, its running actions
   * and the leases it holds.
   */
  public void watch(Runner runner) {
    GaugeWithCallback.builder(CONFIG)
        .name("fsm_workers")
        .help("Actions this runner may run at once (--workers)." + OWN)
        .callback(c -> c.call(runner.workers()))
        .register(registry);
    GaugeWithCallback.builder(CONFIG)
        .name("fsm_running_actions")
        .help("Actions running now on this runner." + OWN)
        .callback(c -> c.call(runner.running()))
        .register(registry);
    GaugeWithCallback.builder(CONFIG)
        .name("fsm_leases_held")
        .help("Tasks this runner holds leases on now: running, or claimed ahead of a free"
            + " worker." + OWN)
        .callback(c -> c.call(runner.held()))
        .register(registry);
  }

  @Override
  public void recorded(Change change) {
    Transition t = change.entry();
    transitions.labelValues(change.next().machine(), t.from(), t.event()).inc();
  }

  @Override
  public void attemptEnded(AttemptEnd end) {
    attempts.labelValues(end.machine(), end.state()).inc();
    if (end.result().isError()) {
      errors.labelValues(end.machine(), end.state()).inc();
    }
    if (end.result() == AttemptEnd.Result.TIMEOUT) {
      timeouts.labelValues(end.machine(), end.state()).inc();
    }
    durations.labelValues(end.machine(), end.state()).observe(seconds(end.duration()));
  }

  @Override
  public void committed(int changes, Duration took) {
    commits.observe(seconds(took));
  }

  private static double seconds(Duration d) {
    return d.toNanos() / 1e9;
  }

  private static double[] bounds(List<Double> buckets) {
    return buckets.stream().mapToDouble(Double::doubleValue).toArray();
  }
}

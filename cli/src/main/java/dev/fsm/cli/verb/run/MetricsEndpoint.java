package dev.fsm.cli.verb.run;

import dev.fsm.engine.RunListener;
import dev.fsm.engine.Runner;
import dev.fsm.metrics.MetricsAddress;
import dev.fsm.metrics.MetricsServer;
import dev.fsm.metrics.RunMetrics;
import dev.fsm.metrics.StoreGauges;
import dev.fsm.operations.Operations;
import java.util.Optional;

/**
 * {@code fsm run --metrics HOST:PORT}: the runner's metrics and the server that serves them,
 * started before the store is opened, so a port in use fails the run before it claims anything.
 * Without the option it serves nothing and hears nothing.
 */
final class MetricsEndpoint implements AutoCloseable {

  /** The reading of the store for the gauges, stopped before the store closes. */
  interface Watching extends AutoCloseable {
    @Override
    void close();
  }

  private final RunMetrics metrics;
  private final MetricsServer server;

  private MetricsEndpoint(RunMetrics metrics, MetricsServer server) {
    this.metrics = metrics;
    this.server = server;
  }

  /**
   * Serves metrics at {@code option} ({@code HOST:PORT}), or nothing when it is null.
   *
   * @throws dev.fsm.UsageException when the address is malformed or its host unknown (exit 2)
   * @throws dev.fsm.FsmException when it cannot listen there, e.g. the port is in use (exit 1)
   */
  static MetricsEndpoint start(String option) {
    if (option == null) {
      return new MetricsEndpoint(null, null);
    }
    MetricsAddress address = MetricsAddress.parse(option);
    RunMetrics metrics = new RunMetrics();
    return new MetricsEndpoint(metrics, MetricsServer.start(address, metrics.registry()));
  }

  /** What the metrics hear from the runner. */
  RunListener listener() {
    return metrics == null ? RunListener.NONE : metrics;
  }

  /** Where the metrics are served, if they are. */
  Optional<String> url() {
    return server == null ? Optional.empty() : Optional.of(server.url());
  }

  /**
   * Adds the gauges of {@code runner} and the store-wide ones read through {@code operations};
   * a reading that fails goes to {@code problems}. Close what it returns before the store.
   */
  Watching watch(Runner runner, Operations operations, RunListener problems) {
    if (metrics == null) {
      return () -> { };
    }
    metrics.watch(runner);
    return StoreGauges.start(metrics.registry(), operations, problems::problem)::close;
  }

  /** Stops serving. */
  @Override
  public void close() {
    if (server != null) {
      server.close();
    }
  }
}

package dev.fsm.metrics;

import dev.fsm.FsmException;
import dev.fsm.UsageException;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Serves a registry's metrics in the Prometheus text format at {@code /metrics}, with the
 * Prometheus Java client's HTTP server and its own pool of daemon threads (so a stalled client
 * holds one thread, not the endpoint): a scrape reads counters and the store-wide figures {@link
 * StoreGauges} keeps, so it never waits for the store.
 */
public final class MetricsServer implements AutoCloseable {

  /**
   * How long the JDK's HTTP server waits for a request's headers, in seconds (the client sets
   * 60): a scraper sends its request at once, and a client that connects and stalls would hold
   * one of the server's threads that long; ten of them would block scrapes.
   */
  private static final String REQUEST_TIME = "sun.net.httpserver.maxReqTime";

  private final HTTPServer server;
  private final String url;

  private MetricsServer(HTTPServer server, String url) {
    this.server = server;
    this.url = url;
  }

  /**
   * Listens on {@code address} and serves {@code registry}.
   *
   * @throws UsageException when the host is not known (exit 2, as a malformed value)
   * @throws FsmException when the port is in use or the host is not this machine's (exit 1)
   */
  public static MetricsServer start(MetricsAddress address, PrometheusRegistry registry) {
    String given = MetricsAddress.OPTION + " " + address.text();
    if (System.getProperty(REQUEST_TIME) == null) {
      System.setProperty(REQUEST_TIME, "5");
    }
    HTTPServer.Builder builder = HTTPServer.builder(RunMetrics.CONFIG).port(address.port())
        .registry(registry);
    if (!address.host().isEmpty()) {
      try {
        builder.inetAddress(InetAddress.getByName(address.host()));
      } catch (UnknownHostException e) {
        throw new UsageException(given + ": unknown host `" + address.host() + "`; give a host"
            + " name or address of this machine, or :" + address.port() + " for every interface");
      }
    }
    try {
      HTTPServer server = builder.buildAndStart();
      return new MetricsServer(server, url(address, server.getPort()));
    } catch (BindException e) {
      throw new FsmException(given + ": " + bindProblem(address, e));
    } catch (IOException | RuntimeException e) {
      throw new FsmException(given + ": cannot serve metrics: " + e.getMessage());
    }
  }

  /** Why binding failed and what to do, in words: the JDK says "Address already in use"... */
  private static String bindProblem(MetricsAddress address, BindException e) {
    String message = String.valueOf(e.getMessage());
    if (message.contains("in use")) {
      return "port " + address.port() + " is in use; pick another port, or port 0 for any free"
          + " one";
    }
    if (message.contains("assign requested address")) {
      return "`" + address.host() + "` is not an address of this machine; give one of its"
          + " addresses, or :" + address.port() + " for every interface";
    }
    if (message.contains("ermission")) {
      return "no permission to listen on port " + address.port() + "; ports under 1024 need"
          + " privileges, pick a higher one";
    }
    return "cannot listen (" + message + ")";
  }

  private static String url(MetricsAddress address, int port) {
    String host = address.host();
    if (host.isEmpty()) {
      try {
        host = InetAddress.getLocalHost().getHostName();
      } catch (UnknownHostException e) {
        host = "localhost";
      }
    }
    return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port + "/metrics";
  }

  /** Where the metrics are, e.g. {@code http://127.0.0.1:9464/metrics}. */
  public String url() {
    return url;
  }

  /** The port it listens on: the one given, or the free one port 0 picked. */
  public int port() {
    return server.getPort();
  }

  @Override
  public void close() {
    server.close();
  }
}

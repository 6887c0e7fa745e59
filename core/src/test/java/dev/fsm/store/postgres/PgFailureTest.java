package dev.fsm.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fsm.FsmException;
import dev.fsm.store.StoreUnavailableException;
import dev.fsm.task.Command;
import dev.fsm.task.Commands;
import dev.fsm.task.TaskStatus;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A bad environment gets one line saying what to do, never a stack trace: a server that is not
 * there, refuses the user or its password, forbids creating the schema, or goes away mid-call.
 */
class PgFailureTest {

  private final TestPostgres server = TestPostgres.server();

  @Test
  void anUnreachablePortIsAOneLineUnavailableErrorWithinSeconds() throws Exception {
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    PgUrl url = PgUrl.parse("postgresql://fsm:secret@localhost:" + port + "/app");
    long start = System.nanoTime();
    assertThatThrownBy(() -> PgStore.open(url, false))
        .isInstanceOf(StoreUnavailableException.class)
        .hasMessage("cannot reach PostgreSQL at localhost:" + port + "/app: connection refused;"
            + " check that the server runs and listens there, and the host and port in --store");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
  }

  @Test
  void aMissingDatabaseIsNamed() {
    PgUrl base = PgUrl.parse(server.freshUrl());
    PgUrl url = PgUrl.parse("postgresql://" + base.user() + "@" + base.host() + ":" + base.port()
        + "/no_such_db");
    assertThatThrownBy(() -> PgStore.open(url, true)).isExactlyInstanceOf(FsmException.class)
        .hasMessage("database `no_such_db` does not exist at " + base.host() + ":" + base.port()
            + "; create it (createdb no_such_db) or name another in --store");
  }

  @Test
  void aRoleThatMayNotCreateTheSchemaIsToldWhatToAsk() {
    server.execute("DO $$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname ="
        + " 'fsm_nocreate') THEN CREATE ROLE fsm_nocreate LOGIN PASSWORD 'pw'; END IF; END$$");
    PgUrl base = PgUrl.parse(server.freshUrl());
    PgUrl url = PgUrl.parse("postgresql://fsm_nocreate:pw@" + base.host() + ":" + base.port()
        + "/" + base.database() + "?schema=" + base.schema());
    assertThatThrownBy(() -> PgStore.open(url, true)).isExactlyInstanceOf(FsmException.class)
        .hasMessageStartingWith("user `fsm_nocreate` may not create fsm's tables in schema `"
            + base.schema() + "` of PostgreSQL at " + base.where() + ": ")
        .hasMessageEndingWith("; grant it the database (GRANT CREATE ON DATABASE "
            + base.database() + " TO fsm_nocreate), or name another schema with ?schema=NAME")
        .hasMessageNotContaining("\n");
  }

  @Test
  void aRoleThatMayOnlyReadIsToldTheGrantThatLetsItWrite() {
    PgUrl base = PgUrl.parse(server.freshUrl());
    try (PgStore owner = PgStore.open(base, true)) {
      owner.create(List.of(PgStoreTest.runnable("r1", PgStoreTest.T0)));
    }
    server.execute("DO $$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname ="
        + " 'fsm_reader') THEN CREATE ROLE fsm_reader LOGIN PASSWORD 'pw'; END IF; END$$");
    server.execute("GRANT USAGE ON SCHEMA " + base.schema() + " TO fsm_reader");
    server.execute("GRANT SELECT ON ALL TABLES IN SCHEMA " + base.schema() + " TO fsm_reader");
    PgUrl url = PgUrl.parse("postgresql://fsm_reader:pw@" + base.host() + ":" + base.port()
        + "/" + base.database() + "?schema=" + base.schema());
    try (PgStore reader = PgStore.open(url, false)) {
      assertThat(reader.get("r1")).isPresent();
      assertThatThrownBy(() -> reader.update("r1", t -> Commands.apply(t, Command.PAUSE,
          new Commands.Request(null, "", "ann"), PgStoreTest.T0)))
          .isExactlyInstanceOf(FsmException.class)
          .hasMessageContaining("permission denied for table task")
          .hasMessageEndingWith("; grant it the schema's tables (GRANT SELECT, INSERT, UPDATE,"
              + " DELETE ON ALL TABLES IN SCHEMA " + base.schema() + " TO fsm_reader), or name"
              + " another schema with ?schema=NAME");
    }
  }

  @Test
  void aWrongOrMissingPasswordIsNamedWithoutShowingIt() throws Exception {
    assumeTrue(System.getenv("FSM_TEST_PG_URL") == null, "needs the embedded server's pg_hba");
    assumeTrue(!Files.exists(Path.of(System.getProperty("user.home"), ".pgpass")),
        "a ~/.pgpass would give the password");
    server.execute("DO $$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname ="
        + " 'fsm_pw') THEN CREATE ROLE fsm_pw LOGIN PASSWORD 'right'; END IF; END$$");
    Path hba;
    try (Connection c = server.connect(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SHOW hba_file")) {
      r.next();
      hba = Path.of(r.getString(1));
    }
    String original = Files.readString(hba);
    try {
      Files.writeString(hba, "host all fsm_pw 127.0.0.1/32 scram-sha-256\n"
          + "host all fsm_pw ::1/128 scram-sha-256\n" + original);
      server.execute("SELECT pg_reload_conf()");
      PgUrl base = PgUrl.parse(server.freshUrl());
      String at = "PostgreSQL at 127.0.0.1:" + base.port() + "/" + base.database();
      PgUrl wrong = PgUrl.parse("postgresql://fsm_pw:wrong@127.0.0.1:" + base.port() + "/"
          + base.database(), java.util.Map.of());
      assertThatThrownBy(() -> PgStore.open(wrong, true)).isExactlyInstanceOf(FsmException.class)
          .hasMessage(at + " refused user `fsm_pw`: wrong password; give it in the URL, in"
              + " $PGPASSWORD or in ~/.pgpass");
      PgUrl none = PgUrl.parse("postgresql://fsm_pw@127.0.0.1:" + base.port() + "/"
          + base.database(), java.util.Map.of());
      assertThatThrownBy(() -> PgStore.open(none, true)).isExactlyInstanceOf(FsmException.class)
          .hasMessage(at + " asks user `fsm_pw` for a password and none was given; give it in"
              + " the URL, in $PGPASSWORD or in ~/.pgpass");
      PgUrl fromEnv = PgUrl.parse("postgresql://fsm_pw@127.0.0.1:" + base.port() + "/"
          + base.database() + "?schema=" + base.schema(), java.util.Map.of("PGPASSWORD", "right"));
      assertThatThrownBy(() -> PgStore.open(fromEnv, false))
          .as("the password is right: only the store is missing")
          .hasMessageStartingWith("no fsm store in schema");
    } finally {
      Files.writeString(hba, original);
      server.execute("SELECT pg_reload_conf()");
    }
  }

  @Test
  void aServerThatGoesAwayMidCallIsRetriedOnANewConnectionOrReportedUnavailable()
      throws Exception {
    server.execute("DO $$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname ="
        + " 'fsm_cut') THEN CREATE ROLE fsm_cut LOGIN PASSWORD 'pw'; END IF; END$$");
    PgUrl base = PgUrl.parse(server.freshUrl());
    server.execute("GRANT CREATE ON DATABASE \"" + base.database() + "\" TO fsm_cut");
    PgUrl url = PgUrl.parse("postgresql://fsm_cut:pw@" + base.host() + ":" + base.port() + "/"
        + base.database() + "?schema=" + base.schema());
    try (PgStore store = PgStore.open(url, true)) {
      store.create(List.of(PgStoreTest.runnable("t1", PgStoreTest.T0),
          PgStoreTest.runnable("t2", PgStoreTest.T0)));
      assertThat(store.claim("r", 1, PgStoreTest.T0, Duration.ofSeconds(30))).hasSize(1);
      store.renew("r", List.of("t1"), PgStoreTest.T0.plusSeconds(40));

      // Between calls: every role's connection is cut; each call reconnects by itself.
      terminate(store);
      assertThat(store.renew("r", List.of("t1"), PgStoreTest.T0.plusSeconds(50))).isEmpty();
      assertThat(store.claim("r", 5, PgStoreTest.T0, Duration.ofSeconds(30)))
          .extracting(dev.fsm.task.Task::id).containsExactly("t2");
      assertThat(store.get("t1").orElseThrow().lease().until())
          .isEqualTo(PgStoreTest.T0.plusSeconds(50));

      // Mid-call: the update's function runs inside the transaction when the backend dies; it
      // rolled back, so the update runs again on a new connection.
      CountDownLatch inside = new CountDownLatch(1);
      CountDownLatch go = new CountDownLatch(1);
      java.util.concurrent.atomic.AtomicInteger calls =
          new java.util.concurrent.atomic.AtomicInteger();
      CompletableFuture<dev.fsm.task.Task> update = CompletableFuture.supplyAsync(
          () -> store.update("t1", t -> {
            calls.incrementAndGet();
            inside.countDown();
            try {
              go.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            return Commands.apply(t, Command.PAUSE, new Commands.Request(null, "", "ann"),
                PgStoreTest.T0.plusSeconds(1));
          }));
      assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
      terminate(store);
      go.countDown();
      assertThat(update.get(10, TimeUnit.SECONDS).status()).isEqualTo(TaskStatus.PAUSED);
      assertThat(calls).hasValue(2);
      assertThat(store.history("t1")).hasSize(1);

      // A server that takes no new connection: one line, unavailable; later calls work again.
      server.execute("ALTER ROLE fsm_cut CONNECTION LIMIT 0");
      try {
        terminate(store);
        assertThatThrownBy(() -> store.get("t1")).isInstanceOf(StoreUnavailableException.class)
            .hasMessageStartingWith("PostgreSQL at " + url.where() + " takes no connection now:")
            .hasMessageEndingWith("; try again later").hasMessageNotContaining("\n");
        assertThatThrownBy(() -> store.claim("r", 1, PgStoreTest.T0, Duration.ofSeconds(30)))
            .isInstanceOf(StoreUnavailableException.class);
      } finally {
        server.execute("ALTER ROLE fsm_cut CONNECTION LIMIT -1");
      }
      assertThat(store.get("t1").orElseThrow().status()).isEqualTo(TaskStatus.PAUSED);
      assertThat(store.claim("r", 1, PgStoreTest.T0, Duration.ofSeconds(30))).isEmpty();
    }
  }

  @Test
  void textPostgreSqlCannotKeepIsRefusedInOneLineAndChangesNothing() {
    PgUrl url = PgUrl.parse(server.freshUrl());
    try (PgStore store = PgStore.open(url, true)) {
      store.create(List.of(PgStoreTest.runnable("t1", PgStoreTest.T0)));
      assertThatThrownBy(() -> store.update("t1", t -> Commands.apply(t, Command.PAUSE,
          new Commands.Request(null, "nul \u0000 here", "ann"), PgStoreTest.T0)))
          .isExactlyInstanceOf(FsmException.class)
          .hasMessageStartingWith("PostgreSQL at " + url.where() + " cannot store the text to"
              + " update task `t1`: it contains a character PostgreSQL does not keep");
      assertThat(store.history("t1")).isEmpty();
    }
  }

  @Test
  void aDatabaseNotKeepingUtf8IsRefused() {
    assumeTrue(System.getenv("FSM_TEST_PG_URL") == null, "creates a database");
    try {
      server.execute("CREATE DATABASE fsm_ascii ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C'"
          + " TEMPLATE template0");
    } catch (IllegalStateException e) {
      // Made by an earlier run in this server.
    }
    PgUrl base = PgUrl.parse(server.freshUrl());
    PgUrl url = PgUrl.parse("postgresql://" + base.user() + "@" + base.host() + ":"
        + base.port() + "/fsm_ascii");
    assertThatThrownBy(() -> PgStore.open(url, true)).isExactlyInstanceOf(FsmException.class)
        .hasMessage("database `fsm_ascii` at " + url.where() + " keeps text as SQL_ASCII; fsm"
            + " needs a UTF8 database (createdb -E UTF8)");
  }

  @Test
  void aSchemaHoldingAnotherProgramsTablesIsNotTakenOver() {
    String schema = server.freshSchema();
    server.execute("CREATE SCHEMA \"" + schema + "\"; CREATE TABLE \"" + schema
        + "\".task (x int)");
    PgUrl url = PgUrl.parse(server.url(schema));
    assertThatThrownBy(() -> PgStore.open(url, true)).isExactlyInstanceOf(FsmException.class)
        .hasMessage("schema `" + schema + "` of PostgreSQL at " + url.where() + " holds tables"
            + " that are not fsm's (ERROR: relation \"task\" already exists); give fsm a schema"
            + " of its own with ?schema=NAME in --store");
  }

  @Test
  void sslRequiredOfAServerWithoutItIsNamed() {
    assumeTrue(System.getenv("FSM_TEST_PG_URL") == null, "the embedded server has no SSL");
    PgUrl base = PgUrl.parse(server.freshUrl());
    PgUrl url = PgUrl.parse("postgresql://" + base.user() + "@" + base.host() + ":"
        + base.port() + "/" + base.database() + "?sslmode=require");
    assertThatThrownBy(() -> PgStore.open(url, true)).isExactlyInstanceOf(FsmException.class)
        .hasMessage("PostgreSQL at " + url.where() + " refused the connection: The server does"
            + " not support SSL; check sslmode in --store");
  }

  private void terminate(PgStore store) {
    for (int pid : store.backendPids()) {
      if (pid != 0) {
        server.execute("SELECT pg_terminate_backend(" + pid + ")");
      }
    }
  }
}

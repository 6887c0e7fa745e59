package dev.fsm.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.store.ErrorEntry;
import dev.fsm.store.ErrorQuery;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.StoreLocation;
import dev.fsm.store.StorePurpose;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Command;
import dev.fsm.task.Commands;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.Transition;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The schema: created by the creating verbs only, migrated in place, newer ones refused. */
class PgSchemaTest {

  private final TestPostgres server = TestPostgres.server();

  @Test
  void aVersionOneStoreMigratesToTheNewestKeepingItsData() throws Exception {
    String schema = server.freshSchema();
    PgUrl url = PgUrl.parse(server.url(schema));
    madeBy(schema, 1);
    Task t = PgStoreTest.runnable("old", PgStoreTest.T0);
    MachineVersion v;
    try (PgStore old = PgStore.open(url, false)) {
      old.create(List.of(t));
      v = old.register("order", "name: order\n", PgStoreTest.T0);
    }
    try (PgStore store = PgStore.open(url, true)) {
      assertThat(store.get("old")).contains(t);
      assertThat(store.versions("order")).containsExactly(v);
      assertThat(store.claim("r", 1, PgStoreTest.T0, java.time.Duration.ofSeconds(5)))
          .extracting(Task::id).containsExactly("old");
    }
    assertThat(versions(schema)).containsExactly(1, 2, 3, 4, 5, 6);
    try (Connection c = server.connect(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT count(*) FROM \"" + schema + "\".runner")) {
      assertThat(r.next()).isTrue();
    }
    PgStore.open(url, true).close();
    assertThat(versions(schema)).as("nothing applied twice").containsExactly(1, 2, 3, 4, 5, 6);
  }

  @Test
  void aSchemaNewerThanThisFsmKnowsIsRefusedInOneLine() {
    String schema = server.freshSchema();
    PgUrl url = PgUrl.parse(server.url(schema));
    PgStore.open(url, true).close();
    server.execute("INSERT INTO \"" + schema + "\".fsm_schema (version) VALUES (999)");
    String expected = "schema `" + schema + "` of PostgreSQL at " + url.where() + " has fsm"
        + " schema version 999, newer than this fsm knows (" + PgSchema.NEWEST + "); upgrade fsm";
    assertThatThrownBy(() -> PgStore.open(url, false)).isExactlyInstanceOf(FsmException.class)
        .hasMessage(expected);
    assertThatThrownBy(() -> PgStore.open(url, true)).hasMessage(expected);
  }

  @Test
  void onlyTheCreatingVerbsCreateTheSchema() {
    String schema = server.freshSchema();
    StoreLocation at = new StoreLocation.Database(server.url(schema));
    PgUrl url = PgUrl.parse(server.url(schema));
    String missing = "no fsm store in schema `" + schema + "` of database `" + url.database()
        + "` at " + url.host() + ":" + url.port() + "; `fsm start` or `fsm run` create it, or"
        + " name another with ?schema=NAME in --store or $FSM_STORE";
    assertThat(PgStoreKind.INSTANCE.exists(at)).isFalse();
    assertThatThrownBy(() -> PgStoreKind.INSTANCE.check(at, StorePurpose.READ, "fsm ls", false))
        .isExactlyInstanceOf(FsmException.class).hasMessage(missing);
    assertThatThrownBy(() -> PgStore.open(url, false)).hasMessage(missing);
    assertThat(PgStoreKind.INSTANCE.exists(at)).as("refusing created nothing").isFalse();

    PgStoreKind.INSTANCE.check(at, StorePurpose.RUN, "fsm run", true);
    PgStoreKind.INSTANCE.open(at, StorePurpose.RUN,
        dev.fsm.store.StoreOpenOptions.of("fsm run").create(true)).close();
    assertThat(PgStoreKind.INSTANCE.exists(at)).isTrue();
    PgStoreKind.INSTANCE.check(at, StorePurpose.READ, "fsm ls", false);
  }

  @Test
  void twoProcessesCreatingOneSchemaAtOnceBothSucceed() throws Exception {
    PgUrl url = PgUrl.parse(server.freshUrl());
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int i = 0; i < 3; i++) {
      Thread t = new Thread(() -> {
        try {
          PgStore.open(url, true).close();
        } catch (Throwable e) {
          failures.add(e);
        }
      });
      threads.add(t);
      t.start();
    }
    for (Thread t : threads) {
      t.join(30_000);
    }
    assertThat(failures).isEmpty();
    assertThat(versions(url.schema())).containsExactly(1, 2, 3, 4, 5, 6);
  }

  @Test
  void aVersionTwoStoreOpenedWithoutMigratingKeepsRunnersInItsColumnsAndMigratesThemLater()
      throws Exception {
    String schema = server.freshSchema();
    PgUrl url = PgUrl.parse(server.url(schema));
    madeBy(schema, 2);
    dev.fsm.store.RunnerRecord r = new dev.fsm.store.RunnerRecord("runner:7@h", "h", 7, 2,
        List.of("order"), PgStoreTest.T0, PgStoreTest.T0.plusSeconds(2), 3, 1.5, true);
    dev.fsm.store.RunnerRecord asV2 = new dev.fsm.store.RunnerRecord("runner:7@h", "h", 7, 2,
        List.of(), PgStoreTest.T0, PgStoreTest.T0.plusSeconds(2), 0, 0, false);
    try (PgStore v2 = PgStore.open(url, false)) {
      v2.runnerSeen(r);
      assertThat(v2.runners(PgStoreTest.T0)).containsExactly(asV2);
    }
    try (PgStore store = PgStore.open(url, true)) {
      assertThat(store.runners(PgStoreTest.T0)).containsExactly(asV2);
      store.runnerSeen(r);
      assertThat(store.runners(PgStoreTest.T0)).containsExactly(r);
    }
    assertThat(versions(schema)).containsExactly(1, 2, 3, 4, 5, 6);
  }

  @Test
  void aVersionThreeStoreReadsErrorsAndItsMigrationAddsTheIndexTheirQueryUses()
      throws Exception {
    String schema = server.freshSchema();
    PgUrl url = PgUrl.parse(server.url(schema));
    madeBy(schema, 3);
    Transition error = new Transition(PgStoreTest.T0, "ship", "error", "ship", 5, 1,
        "runner:1@h/w1", "carrier down");
    ErrorQuery query = new ErrorQuery(PgStoreTest.T0, Optional.of("order"), Optional.of("ship"));
    try (PgStore v3 = PgStore.open(url, false)) {
      v3.restore(List.of(new TaskHistory(PgStoreTest.runnable("t1", PgStoreTest.T0),
          List.of(error))));
      List<ErrorEntry> found = new ArrayList<>();
      v3.errors(query, found::add);
      assertThat(found).containsExactly(new ErrorEntry("t1", "order", error));
    }
    PgStore.open(url, true).close();
    assertThat(versions(schema)).containsExactly(1, 2, 3, 4, 5, 6);
    try (Connection c = server.connect(); Statement s = c.createStatement()) {
      // Told to avoid a sequential scan, the planner can take the partial index only if the
      // query's predicate implies the index's.
      s.execute("SET enable_seqscan = off");
      StringBuilder plan = new StringBuilder();
      try (PreparedStatement explain = PgReads.errorStatement(c, "EXPLAIN ",
          PgTables.of(schema, PgSchema.NEWEST).transition(), query);
          ResultSet r = explain.executeQuery()) {
        while (r.next()) {
          plan.append(r.getString(1)).append('\n');
        }
      }
      assertThat(plan.toString()).contains("transition_errors");
    }
  }

  @Test
  void aVersionFiveStoreKeepsNoLastChangeUntilMigratedAndThenKeepsIt() throws Exception {
    String schema = server.freshSchema();
    PgUrl url = PgUrl.parse(server.url(schema));
    madeBy(schema, 5);
    Instant killedAt = PgStoreTest.T0.plusSeconds(3600);
    TaskQuery byUpdate = new TaskQuery(Optional.empty(), Optional.empty(), Set.of(),
        Optional.empty(), 10, TaskQuery.Order.DESCENDING, TaskQuery.Sort.UPDATED);
    try (PgStore v5 = PgStore.open(url, false)) {
      v5.create(List.of(PgStoreTest.runnable("a", PgStoreTest.T0),
          PgStoreTest.runnable("b", PgStoreTest.T0)));
      v5.update("a", t -> Commands.apply(t, Command.KILL, new Commands.Request(null, "",
          "user:ann", null, false, null), killedAt));
      // The schema has nowhere to keep it: read as when the task entered its state.
      assertThat(v5.get("a").orElseThrow().changed()).isEqualTo(PgStoreTest.T0);
      assertThat(v5.list(byUpdate)).extracting(Task::id).containsExactly("b", "a");
    }
    try (PgStore v6 = PgStore.open(url, true)) {
      v6.update("b", t -> Commands.apply(t, Command.KILL, new Commands.Request(null, "",
          "user:ann", null, false, null), killedAt));
      assertThat(v6.get("b").orElseThrow().changed()).isEqualTo(killedAt);
      assertThat(v6.list(byUpdate)).extracting(Task::id).containsExactly("b", "a");
    }
    assertThat(versions(schema)).containsExactly(1, 2, 3, 4, 5, 6);
    try (Connection c = server.connect()) {
      // What the previous release reads, and refuses when newer than it knows: still 5.
      assertThat(PgSchema.required(c, schema)).isEqualTo(5);
      assertThat(PgSchema.version(c, schema)).isEqualTo(6);
    }
  }

  @Test
  void aLaterAdditionThisFsmDoesNotKnowIsNoReasonToRefuseTheSchema() throws Exception {
    String schema = server.freshSchema();
    PgUrl url = PgUrl.parse(server.url(schema));
    PgStore.open(url, true).close();
    server.execute("INSERT INTO \"" + schema + "\".fsm_schema_additions (version) VALUES ("
        + (PgSchema.NEWEST + 1) + ")");
    try (PgStore store = PgStore.open(url, false)) {
      store.create(List.of(PgStoreTest.runnable("a", PgStoreTest.T0)));
      assertThat(store.get("a")).isPresent();
    }
    PgStore.open(url, true).close();
    assertThat(versions(schema)).endsWith(PgSchema.NEWEST, PgSchema.NEWEST + 1);
  }

  /** Makes {@code schema} as an fsm that knew versions up to {@code newest} made it. */
  private void madeBy(String schema, int newest) throws java.sql.SQLException {
    try (Connection c = server.connect(); Statement s = c.createStatement()) {
      s.execute("CREATE SCHEMA \"" + schema + "\"");
      s.execute("CREATE TABLE \"" + schema + "\".fsm_schema (version int PRIMARY KEY,"
          + " applied timestamptz NOT NULL DEFAULT clock_timestamp())");
      for (int v = 1; v <= newest; v++) {
        PgSchema.apply(c, schema, v);
      }
    }
  }

  private List<Integer> versions(String schema) {
    List<Integer> versions = new ArrayList<>();
    try (Connection c = server.connect(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT version FROM \"" + schema
            + "\".fsm_schema UNION ALL SELECT version FROM \"" + schema
            + "\".fsm_schema_additions ORDER BY version")) {
      while (r.next()) {
        versions.add(r.getInt(1));
      }
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
    return versions;
  }
}

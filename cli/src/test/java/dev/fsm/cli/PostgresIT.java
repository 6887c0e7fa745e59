package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fsm.store.postgres.TestPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What only a PostgreSQL store has to show, on the real jar against a real server: URLs and
 * servers that are wrong, commands reaching a runner in another process through the database,
 * a runner riding through lost connections, and the store's health.
 */
class PostgresIT {

  private static final TestPostgres PG = TestPostgres.server();

  @TempDir Path dir;
  private String schema;
  private String url;
  private final List<FsmProcess> background = new ArrayList<>();

  @BeforeEach
  void machines() throws IOException {
    schema = PG.freshSchema();
    // Named, so that cutting connections cuts this test's alone: test classes run two at a time
    // on one server, and cutting every fsm connection failed whichever ran beside it.
    url = PG.url(schema) + "&ApplicationName=fsm-" + schema;
    Files.createDirectories(dir.resolve("machines/scripts"));
    Files.writeString(dir.resolve("machines/long.yaml"), """
        machine: long
        states:
          work: {run: scripts/long.sh, timeout: 2m, on: {ok: done}}
          done: {final: completed}
        """);
    Path script = dir.resolve("machines/scripts/long.sh");
    Files.writeString(script, """
        #!/bin/sh
        cat >/dev/null
        echo $$ > "$FSM_TASK_ID.pid"
        sleep 60
        """);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(dir.resolve("machines/steps.yaml"), """
        machine: steps
        states:
          one: {run: builtin:sleep 50ms, on: {ok: two}}
          two: {run: builtin:sleep 50ms, on: {ok: three}}
          three: {run: builtin:sleep 50ms, on: {ok: done}}
          done: {final: completed}
        """);
  }

  @AfterEach
  void stop() throws IOException {
    background.forEach(FsmProcess::close);
    try (var files = Files.list(dir.resolve("machines"))) {
      for (Path pid : files.filter(f -> f.toString().endsWith(".pid")).toList()) {
        String text = Files.readString(pid).strip();
        if (!text.isEmpty()) {
          ProcessHandle.of(Long.parseLong(text)).ifPresent(ProcessHandle::destroyForcibly);
        }
      }
    }
  }

  private StoreCommands fsm() {
    return new StoreCommands(dir, url);
  }

  @Test
  void aMalformedUrlIsAUsageErrorAndAnUnreachableServerIsOneLine() {
    FsmJar.Result malformed = FsmJar.run(dir, "ls", "--store", "postgresql://");
    assertThat(malformed.exit()).as(malformed.err()).isEqualTo(2);
    assertThat(malformed.err()).startsWith("fsm: ").contains("--store").hasLineCount(1);

    FsmJar.Result badSchema = FsmJar.run(dir, "ls", "--store",
        "postgresql://localhost/fsm?schema=a;drop");
    assertThat(badSchema.exit()).as(badSchema.err()).isEqualTo(2);

    FsmJar.Result unreachable = FsmJar.run(dir, "ls", "--store",
        "postgresql://fsm:secret@127.0.0.1:1/fsm");
    assertThat(unreachable.exit()).isEqualTo(1);
    assertThat(unreachable.err()).startsWith("fsm: ").contains("127.0.0.1:1")
        .doesNotContain("secret").hasLineCount(1);
  }

  @Test
  void readVerbsOnAMissingSchemaSaySoAndCreateNothing() throws SQLException {
    FsmJar.Result ls = fsm().run("ls");
    assertThat(ls.exit()).isEqualTo(1);
    assertThat(ls.err()).contains(schema).hasLineCount(1);
    assertThat(schemaExists()).isFalse();

    fsm().ok("start", "steps");
    assertThat(schemaExists()).isTrue();
    assertThat(fsm().ok("ls").out()).contains("steps");
  }

  @Test
  void aPauseFromAnotherProcessStopsTheRunnersProgramThroughTheDatabase() throws IOException {
    FsmProcess runner = runner();
    String id = fsm().ok("start", "long").out().strip();
    Path pidFile = dir.resolve("machines/" + id + ".pid");
    Await.until("the runner to start the program", Duration.ofSeconds(20),
        () -> Files.exists(pidFile) && !read(pidFile).isEmpty());
    long program = Long.parseLong(read(pidFile));

    long sent = System.nanoTime();
    assertThat(fsm().ok("send", id, "pause").out()).contains("runnable -> paused");
    // A lease renewal (every 10 s with the default 30 s lease) would stop it too, only later.
    Await.until("the paused program to end", Duration.ofSeconds(8),
        () -> !ProcessHandle.of(program).map(ProcessHandle::isAlive).orElse(false));
    assertThat(Duration.ofNanos(System.nanoTime() - sent)).isLessThan(Duration.ofSeconds(8));
    JsonNode shown = fsm().json("show", id);
    assertThat(shown.get("status").asText()).isEqualTo("paused");
    assertThat(runner.alive()).isTrue();
  }

  @Test
  void theRunnerRidesThroughLostConnectionsAndLosesNothing() throws Exception {
    List<String> tasks = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      tasks.add("{\"id\": \"s-" + i + "\"}");
    }
    Files.write(dir.resolve("tasks.jsonl"), tasks);
    fsm().ok("start", "steps", "--from", "tasks.jsonl");
    FsmProcess runner = runner();
    // Cut every connection of this test, again and again, while the runner works.
    long until = System.nanoTime() + Duration.ofMillis(1500).toNanos();
    int cut = 0;
    while (System.nanoTime() < until) {
      cut += terminateFsmConnections();
      Thread.sleep(100);
    }
    assertThat(cut).as("connections cut").isPositive();
    Await.until("every task to complete", Duration.ofSeconds(60),
        () -> completed() == 40);
    for (int i = 0; i < 40; i += 7) {
      JsonNode history = fsm().json("history", "s-" + i);
      assertThat(history).as("s-" + i + ": each step once").hasSize(3);
    }
    // A connection cut between calls is taken up again at once, with nothing to say; one cut
    // mid-commit is an outage, said once when it starts and once when it ends.
    if (runner.err().contains("store unavailable")) {
      assertThat(runner.err()).contains("store reachable again");
    }
  }

  @Test
  void storeCheckReportsTheSchemaAndHealth() {
    fsm().ok("start", "steps");
    FsmJar.Result check = fsm().ok("store", "check");
    assertThat(check.out()).contains("schema version").contains("healthy");
    FsmJar.Result rebuild = fsm().run("store", "rebuild");
    assertThat(rebuild.exit()).isEqualTo(1);
    assertThat(rebuild.err()).contains("is for embedded store folders");
  }

  private int completed() {
    try {
      return fsm().json("ls", "--status", "completed").size();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private FsmProcess runner() {
    FsmProcess p = FsmProcess.start(dir, "run", "--workers", "4", "--store", url);
    background.add(p);
    return p.awaitServing();
  }

  private boolean schemaExists() throws SQLException {
    try (Connection c = PG.connect(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT count(*) FROM information_schema.schemata"
            + " WHERE schema_name = '" + schema + "'")) {
      r.next();
      return r.getInt(1) == 1;
    }
  }

  private int terminateFsmConnections() throws SQLException {
    try (Connection c = PG.connect(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT count(pg_terminate_backend(pid))"
            + " FROM pg_stat_activity WHERE application_name = 'fsm-" + schema + "'")) {
      r.next();
      return r.getInt(1);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file).strip();
    } catch (IOException e) {
      return "";
    }
  }
}

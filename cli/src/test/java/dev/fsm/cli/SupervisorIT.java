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
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * The program supervisor and self-fencing on the real jar: a runner killed with SIGKILL leaves no
 * program running, with no other runner started; a runner cut off from PostgreSQL stops its
 * actions before their lease ends, says so, and takes the task up again when the database is back.
 */
@Isolated("asserts on time")
class SupervisorIT {

  /** Records its pid and sleeps 60 s unless the file {@code fast} exists. */
  private static final String LONG_SCRIPT = """
      #!/bin/sh
      cat >/dev/null
      echo $$ > "$FSM_TASK_ID.pid"
      [ -e fast ] || sleep 60
      echo '{"event":"ok"}'
      """;

  private static final String ROLE = "fsm_sup";

  @TempDir Path dir;

  private final List<FsmProcess> background = new ArrayList<>();

  @AfterEach
  void stopLeftovers() throws IOException {
    background.forEach(FsmProcess::close);
    if (!Files.isDirectory(dir.resolve("machines"))) {
      return;
    }
    try (Stream<Path> files = Files.list(dir.resolve("machines"))) {
      for (Path pidFile : files.filter(f -> f.toString().endsWith(".pid")).toList()) {
        String pid = Files.readString(pidFile).strip();
        if (!pid.isEmpty()) {
          stopIfAProgram(Long.parseLong(pid));
        }
      }
    }
  }

  /**
   * Kills a program a test left running, and nothing else: the supervisor usually stopped it
   * already, and pids wrap around quickly (pid_max is 32768 here), so a pid read from a file may
   * name another process by now.
   */
  static void stopIfAProgram(long pid) {
    Optional<ProcessHandle> handle = ProcessHandle.of(pid);
    try {
      if (handle.isPresent() && environment(pid).stream()
          .anyMatch(e -> e.startsWith("FSM_ATTEMPT_MARK="))) {
        handle.get().destroyForcibly();
      }
    } catch (IOException e) {
      // Gone, or not ours to read: not a program of this test.
    }
  }

  /** The supervisor a runner started: its only child running the supervisor's main. */
  static ProcessHandle supervisorOf(FsmProcess runner) {
    Await.until("the runner's supervisor to start", Duration.ofSeconds(20),
        () -> findSupervisor(runner.pid()).isPresent());
    return findSupervisor(runner.pid()).orElseThrow();
  }

  private static Optional<ProcessHandle> findSupervisor(long runner) {
    return ProcessHandle.of(runner).stream().flatMap(ProcessHandle::children)
        .filter(h -> h.info().arguments().map(List::of).orElse(List.of()).stream()
            .anyMatch(a -> a.endsWith("SupervisorMain")))
        .findFirst();
  }

  @Test
  void aRunnerKilledWithSigkillLeavesNoProgramRunningWithinTheGrace() throws IOException {
    longMachine();
    String id = commands("store").ok("start", "slow").out().strip();
    FsmProcess runner = run("store", "run", "--grace", "1s");
    Path pidFile = dir.resolve("machines/" + id + ".pid");
    Await.until("the action to start", Duration.ofSeconds(20), () -> hasPid(pidFile));
    long program = pid(pidFile);
    ProcessHandle supervisor = supervisorOf(runner);
    assertThat(environment(program)).as("the program carries its runner's mark")
        .anyMatch(e -> e.startsWith("FSM_RUNNER_MARK="));

    runner.kill();
    runner.awaitExit(Duration.ofSeconds(5));
    Duration gone = Await.until("the program to be stopped", Duration.ofSeconds(3),
        () -> !running(program));
    assertThat(gone).isLessThan(Duration.ofSeconds(3));
    Await.until("the supervisor to exit", Duration.ofSeconds(5), () -> !supervisor.isAlive());
    assertThat(runner.err()).contains("fsm supervisor: runner pid " + runner.pid() + " is gone:"
        + " stopped ");
  }

  @Test
  void aRunnerThatStopsCleanlyTakesItsSupervisorWithIt() throws IOException {
    longMachine();
    Files.writeString(dir.resolve("machines/fast"), "");
    String id = commands("store").ok("start", "slow").out().strip();
    FsmProcess runner = run("store", "run");
    Await.until("the task to complete", Duration.ofSeconds(20),
        () -> "completed".equals(status("store", id)));
    ProcessHandle supervisor = supervisorOf(runner);
    runner.terminate();
    assertThat(runner.awaitExit(Duration.ofSeconds(15))).isZero();
    Await.until("the supervisor to exit", Duration.ofSeconds(5), () -> !supervisor.isAlive());
    assertThat(runner.err()).doesNotContain("supervisor");
  }

  @Test
  void aStalledRunnersProgramIsStoppedByTheSupervisorAndItsOutcomeIsNotRecorded()
      throws Exception {
    longMachine();
    String id = commands("store").ok("start", "slow").out().strip();
    // Renewed every 2 s; the margin (600 ms) absorbs what a loaded 2-core machine delays.
    FsmProcess runner = run("store", "run", "--lease", "6s", "--grace", "1s");
    Path pidFile = dir.resolve("machines/" + id + ".pid");
    Await.until("the action to start", Duration.ofSeconds(20), () -> hasPid(pidFile));
    long program = pid(pidFile);
    supervisorOf(runner);

    // As a long GC pause would: the runner renews nothing and stops nothing itself.
    signal("STOP", runner.pid());
    long stalled = System.nanoTime();
    try {
      Await.until("the supervisor to stop the program", Duration.ofSeconds(10),
          () -> !running(program));
      // The last renewal was before the stall; its lease ends 6 s after it, and the program
      // must be gone before then (at 6 - 1 - 0.6 s after it).
      assertThat(Duration.ofNanos(System.nanoTime() - stalled)).isLessThan(Duration.ofSeconds(6));
      // Before the runner wakes: with its lease over it may claim the task again at once, and
      // a program started before `fast` exists would sleep for a minute.
      Files.delete(pidFile);
      Files.writeString(dir.resolve("machines/fast"), "");
    } finally {
      signal("CONT", runner.pid());
    }
    Await.until("the runner to say its supervisor stopped it", Duration.ofSeconds(10),
        () -> runner.err().contains("renewed no lease in time: stopped "));

    try {
      Await.until("the task to run again and complete", Duration.ofSeconds(30),
          () -> "completed".equals(status("store", id)));
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; the task: " + commands("store").run("show",
          id).out() + "; the runner said: " + runner.err(), e);
    }
    assertThat(commands("store").json("show", id).get("errors"))
        .as("the killed program's exit was not recorded as an error").isEmpty();
  }

  @Test
  void aRunnerCutOffFromPostgresStopsItsActionBeforeTheLeaseEnds() throws Exception {
    TestPostgres server = TestPostgres.server();
    server.execute("DO $$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '" + ROLE
        + "') THEN CREATE ROLE " + ROLE + " LOGIN PASSWORD 'pw'; END IF; END$$");
    String schema = server.freshSchema();
    String base = server.url(schema);
    String database = base.substring(base.lastIndexOf('/') + 1, base.indexOf('?'));
    server.execute("GRANT CREATE ON DATABASE \"" + database + "\" TO " + ROLE);
    String url = base.replaceFirst("postgresql://[^@]*@", "postgresql://" + ROLE + ":pw@");
    longMachine();
    String id = commands(url).ok("start", "slow").out().strip();
    FsmProcess runner = run(url, "run", "--lease", "3s", "--grace", "500ms");
    Path pidFile = dir.resolve("machines/" + id + ".pid");
    Await.until("the action to start", Duration.ofSeconds(20), () -> hasPid(pidFile));
    long program = pid(pidFile);

    Instant leaseEnd;
    try {
      server.execute("ALTER ROLE " + ROLE + " CONNECTION LIMIT 0");
      server.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = '"
          + ROLE + "'");
      // The last lease the runner confirmed: nothing of its can change it from now on.
      leaseEnd = leaseUntil(server, schema, id);
      Await.until("the program to be stopped", Duration.ofSeconds(10), () -> !running(program));
      Instant stopped = Instant.now();
      assertThat(stopped).as("stopped before the lease ends at " + leaseEnd)
          .isBefore(leaseEnd);
      Await.until("the runner to say why", Duration.ofSeconds(5),
          () -> runner.err().contains("lease could not be renewed"));
      assertThat(runner.err()).contains("fsm run: lease could not be renewed in time (the store"
          + " was unreachable or slow to answer, or this process got too little CPU; a longer"
          + " --lease gives both more room): stopping 1 running action(s) before it ends, in 800 ms; their tasks"
          + " run again once claimed, but at-most-once ones (`timeout: 0`) go to fault");
      assertThat(runner.alive()).as("the runner rides the outage out").isTrue();
    } finally {
      server.execute("ALTER ROLE " + ROLE + " CONNECTION LIMIT -1");
    }

    // Back: the runner claims the task again once its lease ended, and nothing ran twice.
    Files.delete(pidFile);
    Files.writeString(dir.resolve("machines/fast"), "");
    Await.until("the task to run again and complete", Duration.ofSeconds(30),
        () -> "completed".equals(status(url, id)));
    JsonNode shown = commands(url).json("show", id);
    assertThat(shown.get("errors")).as("the stopped attempt is no error").isEmpty();
  }

  private Instant leaseUntil(TestPostgres server, String schema, String id) throws Exception {
    try (Connection c = server.connect(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT lease_until FROM \"" + schema + "\".task WHERE id = '"
            + id + "'")) {
      assertThat(r.next()).isTrue();
      return r.getTimestamp(1).toInstant();
    }
  }

  private String status(String store, String id) {
    try {
      return commands(store).json("show", id).get("status").asText();
    } catch (IOException | AssertionError e) {
      return "";
    }
  }

  private void longMachine() throws IOException {
    Files.createDirectories(dir.resolve("machines/scripts"));
    Files.writeString(dir.resolve("machines/slow.yaml"), """
        machine: slow
        states:
          work:
            run: scripts/long.sh
            timeout: 1h
            on: {ok: done}
          done: {final: completed}
        """);
    Path script = dir.resolve("machines/scripts/long.sh");
    Files.writeString(script, LONG_SCRIPT);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  private StoreCommands commands(String store) {
    return new StoreCommands(dir, store);
  }

  private FsmProcess run(String store, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--store", store));
    FsmProcess p = FsmProcess.start(dir, all.toArray(String[]::new));
    background.add(p);
    return p.awaitServing();
  }

  private static void signal(String name, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).start();
    assertThat(kill.waitFor()).isZero();
  }

  private static List<String> environment(long pid) throws IOException {
    return List.of(new String(Files.readAllBytes(Path.of("/proc/" + pid + "/environ")))
        .split("\0"));
  }

  private static boolean hasPid(Path file) {
    try {
      return Files.exists(file) && !Files.readString(file).isBlank();
    } catch (IOException e) {
      return false;
    }
  }

  private static long pid(Path file) throws IOException {
    return Long.parseLong(Files.readString(file).strip());
  }

  /** Alive and not a zombie: a killed orphan nobody reaps stays in the table as one. */
  private static boolean running(long pid) {
    try {
      String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
      char state = stat.charAt(stat.lastIndexOf(')') + 2);
      return state != 'Z' && state != 'X';
    } catch (IOException e) {
      return false;
    }
  }
}

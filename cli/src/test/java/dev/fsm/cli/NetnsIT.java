package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.store.Store;
import dev.fsm.store.TaskCount;
import dev.fsm.task.TaskStatus;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Runners as separate hosts: one {@code fsm run} in a network namespace of its own, reaching
 * PostgreSQL over a veth pair, two on this host. Its cable is pulled while its actions run: it
 * must stop them before its leases end (SPEC section 7: the supervisor and self-fencing), the
 * others take its tasks over, and once the cable is back it serves again without anything
 * having run twice. Needs root and {@code ip netns}; skipped, saying why, without them.
 */
@Isolated("asserts on time")
class NetnsIT {

  private static final Duration LEASE = Duration.ofSeconds(3);
  private static final int STEPS = 60;
  private static final int SLOW = 4;

  private static NetNamespace ns;
  private static EmbeddedPostgres pg;

  @TempDir Path dir;
  private final List<FsmProcess> runners = new ArrayList<>();
  private Store store;
  private ActionLog log;

  @BeforeAll
  static void hostAndServer() throws IOException {
    Optional<String> why = NetNamespace.unavailable();
    Assumptions.assumeTrue(why.isEmpty(), () -> "NetnsIT skipped: " + why.orElseThrow());
    try {
      ns = NetNamespace.create();
    } catch (IllegalStateException e) {
      Assumptions.abort("NetnsIT skipped: cannot make a network namespace: " + e.getMessage());
    }
    // The tests' shared server listens on localhost only; this one on the veth pair too.
    pg = EmbeddedPostgres.builder()
        .setServerConfig("listen_addresses", "*")
        .setDataDirectoryCustomizer(data -> {
          try {
            Files.writeString(data.toPath().resolve("pg_hba.conf"), "host all all "
                + ns.cidr() + " trust\n", StandardOpenOption.APPEND);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        })
        .start();
  }

  @AfterAll
  static void removeHostAndServer() throws IOException {
    try {
      if (pg != null) {
        pg.close();
      }
    } finally {
      if (ns != null) {
        ns.close();
      }
    }
  }

  @AfterEach
  void stopRunners() {
    Fleet.cleanUp(runners, store, log);
  }

  @Test
  void aRunnerCutOffFromTheDatabaseStopsItsActionsBeforeItsLeasesEndAndRejoinsLater()
      throws IOException, SQLException {
    String schema = "netns" + ProcessHandle.current().pid();
    String local = "postgresql://postgres@localhost:" + pg.getPort() + "/postgres?schema="
        + schema;
    String remote = "postgresql://postgres@" + ns.hostAddress() + ":" + pg.getPort()
        + "/postgres?schema=" + schema;
    log = Fleet.machines(dir);
    // Slow actions run until the test lets them end, so the cut-off runner's cannot end alone.
    Path go = dir.resolve("go");
    log.writeProgramUntil(dir.resolve("machines/scripts/slow.sh"), go);
    Files.writeString(dir.resolve("machines/slow.yaml"), """
        machine: slow
        states:
          work: {run: scripts/slow.sh, timeout: 1m, on: {ok: done}}
          done: {final: completed}
        """);
    String[] run = {"run", "--workers", "4", "--lease", LEASE.toSeconds() + "s", "--grace", "1s"};
    // The runner to be cut off takes every slow task before the others start, so theirs are
    // the workers free to take its tasks over when its leases end.
    FsmProcess cutOff = FsmProcess.start(dir, ns.prefix(), with(run, "--store", remote));
    runners.add(cutOff.awaitServing());
    StoreCommands fsm = new StoreCommands(dir, local);
    start(fsm, "slow", "w-", SLOW);
    Await.until("the runner in the namespace to run every slow action", Duration.ofSeconds(30),
        () -> log.open(cutOff.pid()).size() == SLOW);
    for (int i = 0; i < 2; i++) {
      runners.add(FsmProcess.start(dir, with(run, "--store", local)));
    }
    runners.forEach(FsmProcess::awaitServing);
    start(fsm, "steps", "s-", STEPS);
    store = Histories.open(local);
    Await.until("the others to run actions", Duration.ofSeconds(30),
        () -> log.runs().values().stream().map(ActionLog.Run::runner).distinct().count() == 3);
    // Read before and just after the cut, on a connection opened beforehand: on a loaded machine
    // spawning `ip` takes a while, and the others may claim the tasks soon after. A lease the
    // others took meanwhile keeps its last value read before the cut (renewals only extend it).
    Map<String, Long> leases;
    try (Connection c = pg.getPostgresDatabase().getConnection()) {
      leases = leasesOf(c, schema, cutOff.pid());
      ns.cut();
      leases.putAll(leasesOf(c, schema, cutOff.pid()));
    }
    // Taken once the link is down.
    long cut = FleetIT.nanos(Instant.now());
    assertThat(leases).as("the cut-off runner's leases; it said: %s; programs: %s",
        cutOff.err(), log.runs().values()).isNotEmpty();
    Map<Long, Long> gone = Fleet.awaitProgramsGone(log, cutOff.pid(), Duration.ofSeconds(20));
    List<String> report = new ArrayList<>();
    for (ActionLog.Run r : log.runs().values()) {
      if (r.runner() != cutOff.pid() || !leases.containsKey(r.task()) || r.end() < cut) {
        continue;
      }
      long end = r.open() ? gone.get(r.id()) : r.end();
      report.add(r.task() + " stopped " + (leases.get(r.task()) - end) / 1_000_000
          + " ms before its lease ended");
      assertThat(end).as("%s's program, cut off %d ms into its run, ended %d ms after its"
          + " lease did (the lease ended %d ms after the cut)", r.task(),
          (cut - r.start()) / 1_000_000, (end - leases.get(r.task())) / 1_000_000,
          (leases.get(r.task()) - cut) / 1_000_000).isLessThan(leases.get(r.task()));
    }
    Await.until("the others to take its tasks over", Duration.ofSeconds(30),
        () -> leases.keySet().stream().allMatch(id -> log.runs().values().stream()
            .anyMatch(r -> r.task().equals(id) && r.runner() != cutOff.pid()
                && r.start() > cut)));
    for (String id : leases.keySet()) {
      long again = log.runs().values().stream().filter(r -> r.task().equals(id)
          && r.runner() != cutOff.pid() && r.start() > cut).mapToLong(ActionLog.Run::start)
          .min().orElseThrow();
      report.add(id + " ran again elsewhere " + (again - cut) / 1_000_000 + " ms after the cut");
      assertThat((again - cut) / 1_000_000).as("ms from the cut until %s ran again elsewhere", id)
          .isLessThanOrEqualTo(LEASE.plusSeconds(1).toMillis());
    }

    Files.writeString(go, "");
    ns.restore();
    long back = FleetIT.nanos(Instant.now());
    start(fsm, "steps", "r-", 40);
    Await.until("the runner in the namespace to serve again", Duration.ofSeconds(90),
        () -> log.runs().values().stream().anyMatch(r -> r.runner() == cutOff.pid()
            && r.start() > back));
    report.add("served again " + (log.runs().values().stream().filter(r -> r.runner()
        == cutOff.pid() && r.start() > back).mapToLong(ActionLog.Run::start).min().orElseThrow()
        - back) / 1_000_000 + " ms after the cable was back");
    System.out.println("NetnsIT: lease " + LEASE.toMillis() + " ms: " + report);
    Await.until("every task to complete", Duration.ofSeconds(90),
        () -> completed() == SLOW + STEPS + 40);
    for (FsmProcess r : runners) {
      r.terminate();
      assertThat(r.awaitExit(Duration.ofSeconds(20))).as(r.err()).isZero();
    }

    for (Histories.Entry e : Histories.read(local).values()) {
      List<String> path = e.task().id().startsWith("w-") ? List.of("work", "done")
          : List.of("one", "two", "three", "done");
      assertThat(Histories.problem(e.history(), path)).as(e.task().id()).isEmpty();
    }
    assertThat(ActionLog.overlap(log.runs(), gone::get)).isEmpty();
  }

  private static void start(StoreCommands fsm, String machine, String prefix, int n)
      throws IOException {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      lines.add("{\"id\": \"" + prefix + i + "\"}");
    }
    Path file = Files.createTempFile("tasks", ".jsonl");
    Files.write(file, lines);
    fsm.ok("start", machine, "--from", file.toString());
    Files.delete(file);
  }

  private long completed() {
    return store.counts().stream().filter(c -> c.status() == TaskStatus.COMPLETED)
        .mapToLong(TaskCount::count).sum();
  }

  /**
   * The leases runner {@code pid} holds, by task, as the database has them: when each ends, in
   * epoch nanoseconds.
   */
  private static Map<String, Long> leasesOf(Connection c, String schema, long pid)
      throws SQLException {
    Map<String, Long> leases = new HashMap<>();
    try (PreparedStatement s = c.prepareStatement("SELECT id, lease_until FROM " + schema
            + ".task WHERE lease_owner LIKE ? OR lease_owner LIKE ?")) {
      s.setString(1, "runner:" + pid + "@%");
      s.setString(2, "runner:" + pid + "-%");
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          leases.put(r.getString(1), FleetIT.nanos(r.getTimestamp(2).toInstant()));
        }
      }
    }
    return leases;
  }

  private static String[] with(String[] words, String... more) {
    List<String> all = new ArrayList<>(List.of(words));
    all.addAll(List.of(more));
    return all.toArray(String[]::new);
  }
}

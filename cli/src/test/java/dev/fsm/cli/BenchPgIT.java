package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fsm.store.postgres.TestPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code fsm bench --runners}: real runner processes of the jar on a real PostgreSQL, small
 * enough for a test; and the refusals (an embedded store, a store that already holds tasks).
 */
@Isolated("a benchmark")
class BenchPgIT {

  private static final TestPostgres PG = TestPostgres.server();

  @TempDir Path dir;

  @Test
  void twoRunnersShareTheTasksAndTheReportAddsUp() throws IOException {
    String url = PG.freshUrl();
    FsmJar.Result r = FsmJar.run(dir, "bench", "--store", url, "--runners", "2", "--workers",
        "2", "--tasks", "200", "--states", "2", "--lease", "5s", "--output", "json");
    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode doc = new ObjectMapper().readTree(r.out());
    assertThat(fieldNames(doc)).containsExactly("store", "runners", "workers", "tasks", "states",
        "lease_ms", "transitions", "seconds", "transitions_per_second", "per_runner", "server",
        "targets");
    assertThat(doc.get("runners").asInt()).isEqualTo(2);
    assertThat(doc.get("workers").asInt()).isEqualTo(2);
    assertThat(doc.get("lease_ms").asLong()).isEqualTo(5000);
    assertThat(doc.get("transitions").asLong()).isEqualTo(400);
    double seconds = doc.get("seconds").asDouble();
    assertThat(seconds).isPositive();
    // Both figures are rounded (seconds to the millisecond): within 1% of each other, as a
    // fast run of 0.35 s moves the rate by 1.6/s for half a millisecond.
    assertThat(doc.get("transitions_per_second").asDouble())
        .isCloseTo(400 / seconds, org.assertj.core.data.Percentage.withPercentage(1));
    JsonNode runners = doc.get("per_runner");
    assertThat(runners).hasSize(2);
    long sum = 0;
    for (JsonNode runner : runners) {
      assertThat(fieldNames(runner)).containsExactly("pid", "transitions",
          "transitions_per_second");
      assertThat(runner.get("pid").asLong()).isPositive();
      sum += runner.get("transitions").asLong();
    }
    assertThat(sum).isEqualTo(400);
    assertThat(runners.get(0).get("pid").asLong()).isNotEqualTo(runners.get(1).get("pid")
        .asLong());
    JsonNode server = doc.get("server");
    assertThat(fieldNames(server)).containsExactly("commits", "commits_per_transition",
        "wal_bytes", "wal_bytes_per_transition", "wal_syncs", "wal_syncs_per_transition");
    assertThat(server.get("commits").asLong()).isPositive();
    assertThat(server.get("commits_per_transition").asDouble()).isPositive();
    assertThat(server.get("wal_bytes").asLong()).isPositive();
    assertThat(doc.get("targets").get(0).get("measure").asText())
        .isEqualTo("commits per transition");
    assertThat(r.err()).contains("bench: starting 2 runners of 2 workers...");

    // Every task completed, and the runners are gone.
    FsmJar.Result ls = FsmJar.run(dir, "ls", "--store", url, "--limit", "1000", "--output",
        "json");
    assertThat(ls.exit()).as(ls.err()).isZero();
    JsonNode tasks = new ObjectMapper().readTree(ls.out());
    assertThat(tasks).hasSize(200);
    for (JsonNode t : tasks) {
      assertThat(t.get("status").asText()).as(t.toString()).isEqualTo("completed");
    }
    for (JsonNode runner : runners) {
      assertThat(ProcessHandle.of(runner.get("pid").asLong()).filter(ProcessHandle::isAlive))
          .isEmpty();
    }
  }

  @Test
  void theTextReportHasARowPerRunnerATotalAndTheServersCost() {
    FsmJar.Result r = FsmJar.run(dir, "bench", "--store", PG.freshUrl(), "--runners", "1",
        "--tasks", "50", "--states", "1");
    assertThat(r.exit()).as(r.err()).isZero();
    List<String> lines = r.out().lines().toList();
    assertThat(lines.get(0)).startsWith("1 runner x 4 workers on postgresql://")
        .endsWith("(lease 30s)");
    assertThat(lines.get(1)).startsWith("50 tasks x 1 states: 50 transitions in ")
        .endsWith(" s (first claim to last completion)");
    assertThat(lines).contains("RUNNER  PID       TRANSITIONS  SHARE   TRANSITIONS/S");
    assertThat(lines).anyMatch(l -> l.matches("1 {7}\\d+ +50 +100% +[\\d,]+"));
    assertThat(lines).anyMatch(l -> l.matches("total +50 +100% +[\\d,]+"));
    assertThat(lines).anyMatch(l -> l.matches("server: [\\d,]+ commits \\([\\d.]+ per"
        + " transition, reads included\\), [\\d,]+ bytes of log \\([\\d,]+ per transition\\)"));
    assertThat(lines).anyMatch(l -> l.matches(" +commits per transition +[\\d.]+ +<= 0.2 +"
        + "(met|NOT MET)"));
  }

  @Test
  void runnersNeedAStoreThatProcessesShare() {
    FsmJar.Result r = FsmJar.run(dir, "bench", "--store", dir.resolve("store").toString(),
        "--runners", "2");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().lines().toList()).containsExactly("fsm: --runners needs a store"
        + " that many processes share (--store postgresql://...); " + dir.resolve("store")
        + " is an embedded store, which one process owns");
  }

  @Test
  void aStoreThatAlreadyHoldsTasksIsRefused() throws IOException {
    String url = PG.freshUrl();
    Files.createDirectories(dir.resolve("machines"));
    Files.writeString(dir.resolve("machines/one.yaml"), """
        machine: one
        states:
          a: {run: builtin:noop, on: {ok: done}}
          done: {final: completed}
        """);
    assertThat(FsmJar.run(dir, "start", "one", "--store", url).exit()).isZero();
    FsmJar.Result r = FsmJar.run(dir, "bench", "--store", url, "--runners", "1", "--tasks",
        "10");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err().lines().filter(l -> !l.startsWith("bench: ")).toList()).hasSize(1)
        .first().asString().startsWith("fsm: --store postgresql://").endsWith(" already holds 1"
            + " task(s); give the bench a store of its own (on PostgreSQL, a new ?schema=)");
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }
}

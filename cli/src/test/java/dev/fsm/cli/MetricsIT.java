package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.fsm.metrics.Exposition;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fsm run --metrics} scraped over HTTP while the runner works a few hundred tasks with
 * errors and a timeout, and {@code fsm run --output json} read line by line: both against the
 * store's own histories and {@code fsm stats}.
 */
class MetricsIT {

  private static final Pattern URL = Pattern.compile("metrics at (http://\\S+/metrics)");
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * fetch and pack always succeed; check fails tasks whose id ends in 7 (no retry left: they
   * fail) and sends t-slow to stall, whose action outlives its timeout.
   */
  private static final String MACHINE = """
      machine: load
      states:
        fetch:
          run: builtin:noop
          on: {ok: check}
        check:
          run: scripts/check.sh
          retry: {max_errors: 1, window: 1h, backoff: 1s}
          on: {ok: pack, slow: stall}
        stall:
          run: builtin:sleep 60s
          timeout: 1s
          on: {ok: pack, timeout: pack}
        pack:
          run: builtin:noop
          on: {ok: done}
        done: {final: completed}
      """;

  private static final String CHECK = """
      #!/bin/sh
      cat >/dev/null
      case "$FSM_TASK_ID" in
        *7) echo "card declined for $FSM_TASK_ID" >&2; exit 3 ;;
        t-slow) echo '{"event": "slow"}' ;;
      esac
      """;

  @TempDir Path dir;

  private final List<FsmProcess> background = new ArrayList<>();

  @AfterEach
  void stopLeftovers() {
    background.forEach(FsmProcess::close);
  }

  /** Tasks t-000... (besides t-slow); a tenth of them fail. */
  int tasks() {
    return 300;
  }

  /** The store as --store names it; a subclass runs the tests on another. */
  String store() {
    return "store";
  }

  @Test
  void aRunnerUnderLoadServesCountersThatMoveDeclaredBucketsAndTheCountsOfStats()
      throws IOException {
    machine();
    FsmProcess runner = FsmProcess.start(dir, "run", "--workers", "4", "--metrics",
        "127.0.0.1:0", "--output", "json", "--store", store());
    background.add(runner);
    runner.awaitServing();
    String url = metricsUrl(runner);
    assertThat(url).matches("http://127\\.0\\.0\\.1:[1-9][0-9]*/metrics");

    Exposition idle = Exposition.scrape(url);
    assertThat(idle.sum("fsm_workers")).isEqualTo(4);
    assertThat(idle.sum("fsm_attempts_total")).isZero();

    startTasks();
    AtomicReference<Exposition> moving = new AtomicReference<>();
    Await.until("attempts counted", Duration.ofSeconds(60), () -> {
      moving.set(Exposition.scrape(url));
      return moving.get().sum("fsm_attempts_total") > 0;
    });
    AtomicReference<Exposition> last = new AtomicReference<>();
    int total = tasks() + 1;
    Await.until("every task ended, as fsm_tasks shows", Duration.ofSeconds(120), () -> {
      last.set(Exposition.scrape(url));
      Map<String, String> load = Map.of("machine", "load");
      return last.get().sum("fsm_tasks", load) == total
          && last.get().sum("fsm_tasks", Map.of("machine", "load", "status", "completed"))
              + last.get().sum("fsm_tasks", Map.of("machine", "load", "status", "failed"))
              == total;
    });
    Exposition done = last.get();
    for (String counter : List.of("fsm_attempts_total", "fsm_transitions_total")) {
      assertThat(done.sum(counter)).as(counter).isGreaterThanOrEqualTo(moving.get().sum(counter))
          .isGreaterThan(idle.sum(counter));
    }

    int failing = tasks() / 10;
    assertThat(done.type("fsm_attempts_total")).contains("counter");
    assertThat(attempts(done, "fetch")).isEqualTo(total);
    assertThat(attempts(done, "check")).isEqualTo(total);
    assertThat(attempts(done, "stall")).isEqualTo(1);
    assertThat(attempts(done, "pack")).isEqualTo(total - failing);
    assertThat(done.sum("fsm_errors_total", Map.of("machine", "load", "state", "check")))
        .isEqualTo(failing);
    assertThat(done.sum("fsm_errors_total", Map.of("machine", "load", "state", "stall")))
        .isEqualTo(1);
    assertThat(done.sum("fsm_timeouts_total")).isEqualTo(1);
    assertThat(done.sum("fsm_transitions_total",
        Map.of("machine", "load", "state", "check", "event", "slow"))).isEqualTo(1);

    assertThat(done.type("fsm_attempt_duration_seconds")).contains("histogram");
    assertThat(bounds(done, "fsm_attempt_duration_seconds_bucket",
        Map.of("machine", "load", "state", "check"))).containsExactly("0.005", "0.01", "0.025",
            "0.05", "0.1", "0.25", "0.5", "1.0", "2.5", "5.0", "10.0", "30.0", "60.0", "120.0",
            "300.0", "600.0", "1800.0", "3600.0", "7200.0", "14400.0", "+Inf");
    assertThat(done.sum("fsm_attempt_duration_seconds_bucket",
        Map.of("machine", "load", "state", "stall", "le", "0.5")))
        .as("the timed-out attempt ran its 1 s").isZero();
    assertThat(done.sum("fsm_attempt_duration_seconds_count")).isEqualTo(
        done.sum("fsm_attempts_total"));
    assertThat(done.type("fsm_store_commit_seconds")).contains("histogram");
    assertThat(bounds(done, "fsm_store_commit_seconds_bucket", Map.of())).startsWith("5.0E-4",
        "0.001").endsWith("10.0", "+Inf");
    assertThat(done.sum("fsm_store_commit_seconds_count")).isPositive();
    assertThat(done.type("fsm_tasks")).contains("gauge");
    assertThat(done.sum("fsm_running_actions")).isZero();
    assertThat(done.sum("fsm_leases_held")).isZero();

    Map<String, Double> fromStats = statsCounts();
    for (Exposition.Sample s : done.find("fsm_tasks", Map.of())) {
      assertThat(s.value()).as("fsm_tasks %s against fsm stats", s.labels())
          .isEqualTo(fromStats.getOrDefault(s.labels().get("machine") + "/"
              + s.labels().get("status"), 0.0));
    }
    assertThat(fromStats.values().stream().mapToDouble(Double::doubleValue).sum())
        .isEqualTo(total);

    runner.terminate();
    assertThat(runner.awaitExit(Duration.ofSeconds(30))).as(runner.err()).isZero();
    List<String> lines = List.of(runner.out().split("\n"));
    JsonNode started = JSON.readTree(lines.get(0));
    assertThat(started.get("type").asText()).isEqualTo("started");
    assertThat(started.get("metrics").asText()).isEqualTo(url);
    assertThat(JSON.readTree(lines.get(lines.size() - 2)).get("type").asText())
        .isEqualTo("stopping");
    assertThat(JSON.readTree(lines.get(lines.size() - 1)).get("type").asText())
        .isEqualTo("stopped");
    long recorded = 0;
    for (Histories.Entry e : Histories.read(storeAt()).values()) {
      recorded += e.history().stream().filter(t -> t.by().startsWith("runner:")).count();
    }
    assertThat(done.sum("fsm_transitions_total")).isEqualTo(recorded);
  }

  @Test
  void jsonLinesCarryEveryTransitionAndTheRunnersEventsAndNothingElse() throws IOException {
    machine();
    startTasks();
    FsmJar.Result run = new StoreCommands(dir, store()).ok("run", "--until-idle", "--workers",
        "3", "--output", "json", "-v");

    List<JsonNode> lines = new ArrayList<>();
    for (String line : run.outLines()) {
      lines.add(JSON.readTree(line));
    }
    assertThat(lines.get(0).get("type").asText()).isEqualTo("started");
    assertThat(lines.get(0).get("workers").asInt()).isEqualTo(3);
    assertThat(lines.get(0).get("mode").asText()).isEqualTo("until-idle");
    assertThat(lines.get(0).get("metrics").isNull()).isTrue();
    assertThat(lines.get(0).get("version").asText()).isNotEmpty();
    JsonNode stopped = lines.get(lines.size() - 1);
    assertThat(stopped.get("type").asText()).isEqualTo("stopped");
    assertThat(run.err()).contains(" workers on ", "fsm run: done: ");

    Map<String, List<JsonNode>> byTask = new HashMap<>();
    int errors = 0;
    for (JsonNode line : lines) {
      assertThat(line.get("time").asText()).endsWith("Z");
      if (!line.get("type").asText().equals("transition")) {
        continue;
      }
      for (String key : List.of("task", "machine", "version", "from", "event", "to", "status",
          "duration_ms", "attempt", "by", "reason", "error")) {
        assertThat(line.has(key)).as("%s in %s", key, line).isTrue();
      }
      byTask.computeIfAbsent(line.get("task").asText(), k -> new ArrayList<>()).add(line);
      if (!line.get("error").isNull()) {
        errors++;
        assertThat(line.get("error").asText()).containsAnyOf("card declined", "timed out");
      }
    }
    assertThat(errors).isEqualTo(tasks() / 10 + 1);
    assertThat(stopped.get("errors").asInt()).isEqualTo(errors);
    Map<String, Histories.Entry> stored = Histories.read(storeAt());
    assertThat(byTask).hasSize(tasks() + 1);
    for (Histories.Entry e : stored.values()) {
      List<Transition> byRunner = e.history().stream()
          .filter(t -> t.by().startsWith("runner:")).toList();
      List<JsonNode> printed = byTask.get(e.task().id());
      assertThat(printed).as(e.task().id()).hasSize(byRunner.size());
      for (int i = 0; i < printed.size(); i++) {
        assertThat(printed.get(i).get("from").asText()).isEqualTo(byRunner.get(i).from());
        assertThat(printed.get(i).get("event").asText()).isEqualTo(byRunner.get(i).event());
        assertThat(printed.get(i).get("to").asText()).isEqualTo(byRunner.get(i).to());
      }
      assertThat(printed.get(printed.size() - 1).get("status").asText())
          .isEqualTo(e.task().status().word());
    }
  }

  @Test
  void badMetricsAddressesAreRefusedInOneLineBeforeTheStoreIsTouched() throws IOException {
    refused(2, "--metrics 9464: no port; give HOST:PORT, such as 127.0.0.1:9464, or :9464 for"
        + " every interface (port 0: any free port)", "9464");
    refused(2, "--metrics localhost:99999: port 99999 is over 65535", "localhost:99999");
    refused(2, "--metrics no-such-host.invalid:9464: unknown host `no-such-host.invalid`",
        "no-such-host.invalid:9464");
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      int port = taken.getLocalPort();
      refused(1, "--metrics 127.0.0.1:" + port + ": port " + port + " is in use; pick another"
          + " port, or port 0 for any free one", "127.0.0.1:" + port);
    }
  }

  private void refused(int exit, String message, String address) {
    FsmJar.Result r = FsmJar.run(dir, "run", "--until-idle", "--metrics", address, "--store",
        "refused-store");
    assertThat(r.exit()).as(r.err()).isEqualTo(exit);
    assertThat(r.err()).startsWith("fsm: " + message);
    assertThat(r.err().strip().lines()).as("one line, no stack trace: %s", r.err()).hasSize(1);
    assertThat(dir.resolve("refused-store")).doesNotExist();
  }

  private static double attempts(Exposition e, String state) {
    return e.sum("fsm_attempts_total", Map.of("machine", "load", "state", state));
  }

  private static List<String> bounds(Exposition e, String name, Map<String, String> labels) {
    return e.find(name, labels).stream().map(s -> s.labels().get("le")).toList();
  }

  /** {@code fsm stats --output json}'s counts, summed over states: machine/status to count. */
  private Map<String, Double> statsCounts() throws IOException {
    Map<String, Double> out = new HashMap<>();
    for (JsonNode state : new StoreCommands(dir, store()).json("stats")) {
      String machine = state.get("machine").asText();
      for (Iterator<Map.Entry<String, JsonNode>> it = state.get("counts").fields();
          it.hasNext(); ) {
        Map.Entry<String, JsonNode> c = it.next();
        out.merge(machine + "/" + c.getKey(), c.getValue().asDouble(), Double::sum);
      }
    }
    return out;
  }

  private String metricsUrl(FsmProcess runner) {
    Matcher m = URL.matcher(runner.err());
    assertThat(m.find()).as("the banner names the metrics URL: %s", runner.err()).isTrue();
    return m.group(1);
  }

  private void startTasks() throws IOException {
    StringBuilder lines = new StringBuilder("{\"id\": \"t-slow\"}\n");
    for (int i = 0; i < tasks(); i++) {
      lines.append(String.format("{\"id\": \"t-%03d\"}%n", i));
    }
    Path file = dir.resolve("tasks.jsonl");
    Files.writeString(file, lines);
    new StoreCommands(dir, store()).ok("start", "load", "--from", file.toString());
  }

  private void machine() throws IOException {
    Files.createDirectories(dir.resolve("machines/scripts"));
    Files.writeString(dir.resolve("machines/load.yaml"), MACHINE);
    Path check = dir.resolve("machines/scripts/check.sh");
    Files.writeString(check, CHECK);
    Files.setPosixFilePermissions(check, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** The store as {@link Histories#read(String)} takes it. */
  String storeAt() {
    return dir.resolve(store()).toString();
  }
}

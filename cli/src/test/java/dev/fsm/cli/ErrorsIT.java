package dev.fsm.cli;

import static dev.fsm.cli.StoreCommands.verb;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fsm errors} on the real jar: a machine whose action fails with three root causes, their
 * messages full of numbers, ids, paths and quoted values, over 1,000 tasks, falls into exactly
 * three groups with the right counts, before and after the tasks are redriven, with no runner
 * and through a runner that owns the store; its options and their mistakes.
 */
class ErrorsIT {

  private static final int TASKS = 1_000;

  /** Three causes by the task's {@code n}, every message different from the others. */
  private static final String FLAKY = """
      package acme;

      import dev.fsm.action.api.ActionContext;
      import dev.fsm.action.api.ActionResult;
      import dev.fsm.action.api.FsmAction;
      import java.util.regex.Matcher;
      import java.util.regex.Pattern;

      public class Flaky implements FsmAction {
        private static final Pattern N = Pattern.compile("\\"n\\"\\\\s*:\\\\s*(\\\\d+)");

        @Override
        public ActionResult run(ActionContext context) {
          Matcher m = N.matcher(context.contextJson());
          m.find();
          int n = Integer.parseInt(m.group(1));
          return switch (n % 3) {
            case 0 -> ActionResult.error("connection to 10.0." + (n % 7) + "." + (n % 250)
                + ":5432 refused after " + (n * 7 + 3) + " ms");
            case 1 -> ActionResult.error("cannot read /data/in/batch-" + n + "/part-" + (n * 31)
                + ".csv: line " + (n + 1) + ": bad amount \\"x" + n + "\\"");
            default -> ActionResult.error("order " + context.taskId() + " unknown (request 0x"
                + Integer.toHexString(0x10000000 + n * 4099) + ")");
          };
        }
      }
      """;

  @TempDir Path dir;

  private final List<FsmProcess> background = new ArrayList<>();

  @BeforeEach
  void machinesAndPlugin() throws IOException {
    Files.createDirectories(dir.resolve("machines"));
    Files.writeString(dir.resolve("machines/flaky.yaml"), """
        machine: flaky
        states:
          load:
            run: java:acme.Flaky
            retry: {max_errors: 1, window: 1h, backoff: 1s}
            on: {ok: done}
          done: {final: completed}
        """);
    Files.writeString(dir.resolve("machines/calm.yaml"), """
        machine: calm
        states:
          wait:
            on: {go: done}
          done: {final: completed}
        """);
    Path plugins = Files.createDirectories(dir.resolve("plugins"));
    PluginJar.build(plugins.resolve("flaky.jar"), "acme.Flaky", FLAKY);
  }

  @AfterEach
  void stopRunners() {
    background.forEach(FsmProcess::close);
  }

  /** The store the test runs on, as --store names it; a subclass runs the tests on another. */
  String store() {
    return "store";
  }

  @Test
  void threeCausesOverAThousandTasksMakeThreeGroupsBeforeAndAfterARedrive()
      throws IOException {
    StringBuilder lines = new StringBuilder();
    for (int n = 0; n < TASKS; n++) {
      lines.append("{\"context\": {\"n\": ").append(n).append("}}\n");
    }
    Files.writeString(dir.resolve("batch.jsonl"), lines);
    StoreCommands fsm = new StoreCommands(dir, store());
    fsm.ok("start", "flaky", "--from", "batch.jsonl");
    fsm.ok("start", "calm", "--id", "c1");
    fsm.ok("run", "--until-idle", "--workers", "4", "--plugins", "plugins");

    FsmJar.Result text = fsm.ok("errors");
    assertThat(text.out())
        .containsPattern("COUNT +TASKS +MACHINE +STATE +FIRST SEEN +LAST SEEN +ERROR +EXAMPLE TASK"
            + " +EXAMPLE\n")
        .containsPattern("\n334 +334 +flaky +load +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d +"
            + "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d +connection to <ip>:<n> refused after"
            + " <n> ms +\\S+ +connection to 10\\.0\\.\\d\\.\\d+:5432 refused after \\d+ ms;"
            + " failed: 1 of 1 errors in 1h\n")
        .contains(" cannot read <path>: line <n>: bad amount \"<text>\" ")
        .contains(" order <id> unknown (request <hex>) ")
        .containsPattern("\n1,000 errors in 3 groups since \\d{4}-\\d\\d-\\d\\d"
            + " \\d\\d:\\d\\d:\\d\\d\n$");

    // Redriven, the tasks lose their error lists; their histories keep the errors. One shell
    // runs the verbs, sparing a JVM start each.
    List<JsonNode> redriven = fsm.jsonEach(verb("errors"),
        verb("send", "--machine", "flaky", "--status", "failed", "redrive", "--reason", "fixed"),
        verb("ls", "--machine", "flaky", "--status", "runnable", "--limit", "1"),
        verb("errors"));
    expectThreeGroups(redriven.get(0));
    assertThat(redriven.get(1).get("changed")).hasSize(TASKS);
    assertThat(redriven.get(2).get(0).get("errors")).isEmpty();
    expectThreeGroups(redriven.get(3));

    // A runner owns the embedded store now (of the other machine only, so nothing reruns):
    // the same answer comes through its control socket.
    FsmProcess runner = FsmProcess.start(dir, "run", "--machine", "calm", "--store", store());
    background.add(runner);
    runner.awaitServing();
    expectThreeGroups(fsm.json("errors"));
    runner.terminate();
    assertThat(runner.awaitExit(Duration.ofSeconds(60))).isZero();
  }

  private static void expectThreeGroups(JsonNode report) {
    assertThat(report.get("errors").asLong()).isEqualTo(TASKS);
    assertThat(report.get("group_count").asInt()).isEqualTo(3);
    Map<String, Long> counts = new TreeMap<>();
    for (JsonNode g : report.get("groups")) {
      counts.put(g.get("pattern").asText(), g.get("count").asLong());
      assertThat(g.get("tasks").asLong()).isEqualTo(g.get("count").asLong());
      assertThat(g.get("machine").asText()).isEqualTo("flaky");
      assertThat(g.get("state").asText()).isEqualTo("load");
      assertThat(Instant.parse(g.get("first_seen").asText()))
          .isBeforeOrEqualTo(Instant.parse(g.get("last_seen").asText()));
      assertThat(g.get("example").get("message").asText()).isNotEqualTo(g.get("pattern")
          .asText());
    }
    assertThat(counts).containsExactly(
        Map.entry("cannot read <path>: line <n>: bad amount \"<text>\"", 333L),
        Map.entry("connection to <ip>:<n> refused after <n> ms", 334L),
        Map.entry("order <id> unknown (request <hex>)", 333L));
    List<String> keys = new ArrayList<>();
    report.fieldNames().forEachRemaining(keys::add);
    assertThat(keys).containsExactly("since", "errors", "group_count", "groups");
    List<String> groupKeys = new ArrayList<>();
    report.get("groups").get(0).fieldNames().forEachRemaining(groupKeys::add);
    assertThat(groupKeys).containsExactly("pattern", "machine", "state", "count", "tasks",
        "first_seen", "last_seen", "example");
  }

  @Test
  void filtersAndMistakesAreSaidInOneLine() throws IOException {
    StoreCommands fsm = new StoreCommands(dir, store());
    FsmJar.Result missing = fsm.run("errors");
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err()).contains("no fsm store").doesNotContain("Exception");

    Files.writeString(dir.resolve("three.jsonl"),
        "{\"context\": {\"n\": 0}}\n{\"context\": {\"n\": 1}}\n{\"context\": {\"n\": 3}}\n");
    fsm.ok("start", "flaky", "--from", "three.jsonl");
    fsm.ok("run", "--until-idle", "--plugins", "plugins");

    List<JsonNode> docs = fsm.jsonEach(verb("errors", "--state", "load", "--since", "7d"),
        verb("errors", "--limit", "1"), verb("errors", "--since", "2999-01-01T00:00:00Z"));
    assertThat(docs.get(0).get("errors").asLong()).isEqualTo(3);
    assertThat(docs.get(1).get("groups")).hasSize(1);
    assertThat(docs.get(1).get("group_count").asInt()).isEqualTo(2);
    JsonNode empty = docs.get(2);
    assertThat(empty.get("errors").asLong()).isZero();
    assertThat(empty.get("groups")).isEmpty();
    assertThat(empty.get("since").asText()).isEqualTo("2999-01-01T00:00:00.000Z");
    assertThat(fsm.ok("errors", "--limit", "1").out()).contains("\n3 errors in 2 groups since ")
        .endsWith("; showing the 1 most frequent (raise --limit to see more)\n");

    FsmJar.Result none = fsm.ok("errors", "--state", "done", "--since", "30m");
    assertThat(none.out()).isEmpty();
    assertThat(none.err()).matches("no errors since \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d"
        + " in state `done`; `fsm errors --since 7d` looks further back\n");

    FsmJar.Result badSince = fsm.run("errors", "--since", "yesterday");
    assertThat(badSince.exit()).isEqualTo(2);
    assertThat(badSince.err()).contains("Invalid value for option '--since': `yesterday` is"
        + " neither a duration back from now like 24h, 30m or 7d nor an ISO-8601 time like"
        + " 2026-11-24T09:00 or 2026-11-24T09:00:00Z");
    FsmJar.Result badLimit = fsm.run("errors", "--limit", "0");
    assertThat(badLimit.exit()).isEqualTo(2);
    assertThat(badLimit.err()).contains("Invalid value for option '--limit': `0` is too few;"
        + " give at least 1");
    FsmJar.Result unknown = fsm.run("errors", "--machine", "flakey");
    assertThat(unknown.exit()).isEqualTo(1);
    assertThat(unknown.err()).contains("no machine `flakey` in this store")
        .contains("flaky");
  }
}

package dev.fsm.cli;

import static dev.fsm.cli.StoreCommands.verb;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Machine versions through the real jar: {@code fsm upgrade} with each strategy, on idle tasks
 * and on a task mid-attempt under a runner that owns the store, the missing-state fault, the dry
 * run, a rollback, {@code fsm machines} and the warning of {@code fsm run}.
 */
class UpgradeIT {

  /** v1: {@code work} waits for a file named {@code go} beside the machine file. */
  private static final String V1 = """
      machine: job
      initial: work
      states:
        work:
          run: [sh, -c, 'touch "started-$FSM_TASK_ID"; while [ ! -f go ]; do sleep 0.05; done; echo ok']
          on: {ok: check}
        check:
          run: builtin:noop
          on: {ok: done}
        done: {final: completed}
      """;

  /** v2: {@code check} is gone, {@code verify} replaces it. */
  private static String v2(String strategy) {
    return V1.replace("initial: work\n", "initial: work\nupgrade: " + strategy + "\n")
        .replace("  check:", "  verify:").replace("ok: check}", "ok: verify}");
  }

  @TempDir Path dir;

  @Test
  void continueLeavesOlderTasksOnTheirVersionAndNewTasksPinToTheNewest() throws IOException {
    write(V1);
    String a = ok("start", "job").out().strip();
    write(v2("continue"));
    FsmJar.Result r = ok("upgrade", "job");
    assertThat(r.outLines()).containsExactly(
        "job: registered v2 (" + id2Of("continue") + ") as the newest version; upgrade:"
            + " continue",
        "  v1: 1 task continue on v1");
    String b = ok("start", "job").out().strip();
    List<JsonNode> after = commands().jsonEach(verb("machines"), verb("show", a),
        verb("show", b), verb("history", a));
    Map<Integer, String> ids = ids(after.get(0));
    assertThat(r.outLines().get(0)).contains("(" + ids.get(2) + ")");
    assertThat(after.get(1).get("version").asText()).isEqualTo(ids.get(1));
    assertThat(after.get(2).get("version").asText()).isEqualTo(ids.get(2));
    assertThat(after.get(3)).hasSize(0);
  }

  @Test
  void upgradeMovesIdleTasksAndParksThoseWhoseStateIsGone() throws IOException {
    write(V1);
    List<JsonNode> started = commands().jsonEach(verb("start", "job"), verb("start", "job"));
    String idle = started.get(0).get("id").asText();
    String inCheck = started.get(1).get("id").asText();
    // Put it in `check` the way an operator can: fail it, then redrive it there.
    List<JsonNode> steered = commands().jsonEach(verb("send", inCheck, "error", "--reason", "test"),
        verb("send", inCheck, "error", "--reason", "test"),
        verb("send", inCheck, "redrive", "--to", "check"), verb("send", inCheck, "pause"));
    assertThat(steered.get(3).get("status").asText()).isEqualTo("paused");
    assertThat(steered.get(3).get("state").asText()).isEqualTo("check");
    write(v2("upgrade"));

    FsmJar.Result dry = ok("upgrade", "job", "--dry-run");
    assertThat(dry.outLines()).containsExactly("job: would register v2 (" + id2Of("upgrade")
        + ") as the newest version; upgrade: upgrade (dry run: nothing changed)",
        "  v1: 1 task would move to v2, 1 task would go to fault (state `check` is not in v2)");
    // Before and after the upgrade, in one shell.
    List<JsonNode> seen = commands().jsonEach(verb("machines"), verb("show", idle),
        verb("upgrade", "job"), verb("show", idle), verb("machines"), verb("history", idle),
        verb("show", inCheck));
    assertThat(seen.get(0).get(0).get("versions")).as("a dry run registers nothing").hasSize(1);
    assertThat(seen.get(1).get("version").asText()).isEqualTo(ids(seen.get(0)).get(1));

    JsonNode done = seen.get(2);
    assertThat(done.get("number").asInt()).isEqualTo(2);
    assertThat(done.get("registered").asBoolean()).isTrue();
    assertThat(done.get("dry_run").asBoolean()).isFalse();
    JsonNode v1 = done.get("older").get(0);
    assertThat(v1.get("number").asInt()).isEqualTo(1);
    assertThat(v1.get("move").asInt()).isEqualTo(1);
    assertThat(v1.get("fault").get("check").asInt()).isEqualTo(1);

    String v2 = ids(seen.get(4)).get(2);
    assertThat(seen.get(3).get("version").asText()).isEqualTo(v2);
    JsonNode last = seen.get(5).get(seen.get(5).size() - 1);
    assertThat(last.get("event").asText()).isEqualTo("upgrade");
    assertThat(last.get("reason").asText()).isEqualTo("upgraded v1→v2");
    assertThat(last.get("by").asText()).startsWith("user:");
    JsonNode parked = seen.get(6);
    assertThat(parked.get("status").asText()).isEqualTo("fault");
    assertThat(parked.get("due").isNull()).as("parked").isTrue();
    String error = parked.get("errors").get(parked.get("errors").size() - 1).get("message")
        .asText();
    assertThat(error).startsWith("state `check` does not exist in v2 of machine `job` (the"
        + " task was in it under v1)");

    FsmJar.Result again = ok("upgrade", "job");
    assertThat(again.outLines()).as("idempotent").containsExactly(
        "job: v2 (" + v2 + ") is already the newest version; upgrade: upgrade",
        "  no unfinished tasks of older versions");

    commands().jsonEach(verb("send", inCheck, "error"),
        verb("send", inCheck, "redrive", "--to", "verify"));
    Files.writeString(dir.resolve("machines/go"), "");
    FsmJar.Result run = ok("run", "--until-idle");
    assertThat(run.err()).doesNotContain("warning");
    assertThat(json("show", inCheck).get("status").asText()).isEqualTo("completed");
  }

  @Test
  void abortKillsOlderTasksWithTheReason() throws IOException {
    write(V1);
    List<JsonNode> started = commands().jsonEach(verb("start", "job"), verb("start", "job"));
    String a = started.get(0).get("id").asText();
    String b = started.get(1).get("id").asText();
    ok("send", b, "pause");
    write(v2("abort"));
    assertThat(ok("upgrade", "job", "--dry-run").outLines())
        .contains("  v1: 2 tasks would be aborted");
    assertThat(ok("upgrade", "job").outLines()).contains("  v1: 2 tasks aborted");
    List<JsonNode> after = commands().jsonEach(verb("show", a), verb("history", a),
        verb("show", b), verb("history", b));
    for (int i = 0; i < after.size(); i += 2) {
      JsonNode history = after.get(i + 1);
      assertThat(after.get(i).get("status").asText()).isEqualTo("killed");
      assertThat(history.get(history.size() - 1).get("event").asText()).isEqualTo("kill");
      assertThat(history.get(history.size() - 1).get("reason").asText())
          .isEqualTo("aborted by upgrade to v2 (v1→v2)");
    }
  }

  @Test
  void underARunnerARunningTaskMovesOnceTheOldEdgesRoutedItsOutcome() throws IOException {
    write(V1);
    String running = ok("start", "job", "--id", "running").out().strip();
    try (FsmProcess runner = FsmProcess.start(dir, "run", "--workers", "1", "--store", "store")
        .awaitServing()) {
      Await.until("the action to start", Duration.ofSeconds(20),
          () -> Files.exists(dir.resolve("machines/started-" + running)));
      write(v2("upgrade"));
      FsmJar.Result up = ok("upgrade", "job");
      List<JsonNode> now = commands().jsonEach(verb("machines"), verb("show", running));
      Map<Integer, String> ids = ids(now.get(0));
      String v2 = ids.get(2);
      assertThat(up.outLines()).containsExactly(
          "job: registered v2 (" + v2 + ") as the newest version; upgrade: upgrade",
          "  v1: 1 task moves to v2 when its running attempt ends (it may then go to fault:"
              + " the outcome may leave it in `check`, which v2 lacks)");
      assertThat(now.get(1).get("version").asText()).as("not yet").isEqualTo(ids.get(1));
      Files.writeString(dir.resolve("machines/go"), "");
      Await.until("the task to move", Duration.ofSeconds(20),
          () -> v2.equals(versionQuietly(running)));
      List<JsonNode> moved = commands().jsonEach(verb("history", running),
          verb("show", running));
      List<String> rows = new ArrayList<>();
      for (JsonNode e : moved.get(0)) {
        rows.add(e.get("from").asText() + " " + e.get("event").asText() + " "
            + e.get("to").asText());
      }
      // Routed by v1 (work → check), then moved: v2 has no `check`, so it is parked.
      assertThat(rows).containsExactly("work upgrade work", "work ok check",
          "check upgrade check");
      assertThat(moved.get(1).get("status").asText()).isEqualTo("fault");
      runner.terminate();
      assertThat(runner.awaitExit(Duration.ofSeconds(30))).isZero();
    }
  }

  @Test
  void abortUnderARunnerStopsTheRunningAction() throws IOException {
    write(V1);
    String running = ok("start", "job", "--id", "running").out().strip();
    try (FsmProcess runner = FsmProcess.start(dir, "run", "--workers", "1", "--store", "store")
        .awaitServing()) {
      Await.until("the action to start", Duration.ofSeconds(20),
          () -> Files.exists(dir.resolve("machines/started-" + running)));
      write(v2("abort"));
      assertThat(ok("upgrade", "job").outLines()).contains("  v1: 1 task aborted");
      assertThat(json("show", running).get("status").asText()).isEqualTo("killed");
      Await.until("the runner to stop the action", Duration.ofSeconds(20),
          () -> commands().run("show", running).out().contains("lease     none")
              && !runner.err().isEmpty());
      runner.terminate();
      assertThat(runner.awaitExit(Duration.ofSeconds(30))).as(runner.err()).isZero();
      assertThat(json("show", running).get("status").asText()).isEqualTo("killed");
    }
  }

  @Test
  void aRunnerKilledMidAttemptLeavesTheMoveToTheNextClaim() throws IOException {
    write(V1);
    String running = ok("start", "job", "--id", "running").out().strip();
    try (FsmProcess runner = FsmProcess.start(dir, "run", "--workers", "1", "--store", "store")
        .awaitServing()) {
      Await.until("the action to start", Duration.ofSeconds(20),
          () -> Files.exists(dir.resolve("machines/started-" + running)));
      // v2 keeps every state: the task moves and carries on under v2.
      write(V1.replace("initial: work\n", "initial: work\nupgrade: upgrade\n"));
      ok("upgrade", "job");
      runner.kill();
      runner.awaitExit(Duration.ofSeconds(30));
    }
    Files.writeString(dir.resolve("machines/go"), "");
    FsmJar.Result run = ok("run", "--until-idle");
    assertThat(run.err()).doesNotContain("warning");
    List<JsonNode> after = commands().jsonEach(verb("show", running), verb("machines"),
        verb("history", running));
    JsonNode task = after.get(0);
    assertThat(task.get("status").asText()).isEqualTo("completed");
    assertThat(task.get("version").asText()).isEqualTo(ids(after.get(1)).get(2));
    List<String> events = new ArrayList<>();
    after.get(2).forEach(e -> events.add(e.get("event").asText()));
    assertThat(events).as("pending, moved at the next claim, then v2 ran it")
        .containsSubsequence("upgrade", "upgrade", "ok", "ok");
  }

  @Test
  void aRollbackIsANewNewestVersionAndMachinesShowsEveryVersion() throws IOException {
    write(V1);
    Files.writeString(dir.resolve("machines/go"), "");
    ok("start", "job");
    write(v2("continue"));
    ok("start", "job");
    write(V1);
    FsmJar.Result run = ok("run", "--once");
    assertThat(run.err()).as("the file equals v1, not the newest v2")
        .contains("warning: machines/job.yaml differs from machine `job`'s newest registered"
            + " version v2; tasks keep running under the versions they are pinned to."
            + " `fsm upgrade job` registers it and applies its `upgrade:` to older tasks;"
            + " `fsm start job` registers it for new tasks only");
    String c = ok("start", "job").out().strip();
    List<JsonNode> after = commands().jsonEach(verb("machines"), verb("show", c));
    JsonNode versions = after.get(0).get(0).get("versions");
    Map<Integer, String> ids = ids(after.get(0));
    assertThat(versions).hasSize(3);
    assertThat(versions.get(2).get("number").asInt()).isEqualTo(3);
    assertThat(versions.get(2).get("newest").asBoolean()).isTrue();
    assertThat(versions.get(2).get("id").asText()).isNotIn(ids.get(1), ids.get(2));
    assertThat(after.get(1).get("version").asText())
        .isEqualTo(versions.get(2).get("id").asText());
    assertThat(versions.get(0).get("tasks").get("runnable").asInt()).isEqualTo(1);
    assertThat(ok("run", "--once").err()).doesNotContain("warning");
    FsmJar.Result machines = ok("machines");
    assertThat(machines.outLines().get(1)).startsWith("job").contains("v3 ", "(newest)");
    assertThat(machines.outLines()).hasSize(4);
  }

  @Test
  void anUnknownMachineOrAnInvalidFileIsRefused() throws IOException {
    write(V1);
    FsmJar.Result unknown = commands().run("upgrade", "nope");
    assertThat(unknown.exit()).isEqualTo(1);
    assertThat(unknown.err()).contains("no machine `nope` in machines folder");
    write(V1.replace("ok: check}", "ok: nowhere}"));
    FsmJar.Result invalid = commands().run("upgrade", "job");
    assertThat(invalid.exit()).isEqualTo(1);
    assertThat(invalid.err()).contains("error:", "nowhere", "is not valid");
    assertThat(Files.exists(dir.resolve("store"))).as("nothing was created").isFalse();
  }

  @Test
  void racingUpgradesAndARunnerKilledMidUpgradeLeaveNothingThatRunningItAgainDoesNotFinish()
      throws IOException {
    write(V1);
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      lines.append("{}\n");
    }
    Files.writeString(dir.resolve("tasks.jsonl"), lines);
    ok("start", "job", "--from", "tasks.jsonl");
    try (FsmProcess runner = FsmProcess.start(dir, "run", "--workers", "1", "--store", "store")
        .awaitServing()) {
      write(v2("upgrade"));
      try (FsmProcess first = FsmProcess.start(dir, "upgrade", "job", "--store", "store");
          FsmProcess second = FsmProcess.start(dir, "upgrade", "job", "--store", "store")) {
        assertThat(first.awaitExit(Duration.ofSeconds(60))).as(first.err()).isZero();
        assertThat(second.awaitExit(Duration.ofSeconds(60))).as(second.err()).isZero();
        // One of them moved every idle task; the other found them moved.
        assertThat(first.out() + second.out()).contains("1999 tasks moved to v2")
            .contains("already the newest version");
      }
      write(v2("upgrade") + "# v3\n");
      try (FsmProcess third = FsmProcess.start(dir, "upgrade", "job", "--store", "store")) {
        // Killed once v3 is registered: mid-upgrade, or just after it answered.
        Await.until("v3 to be registered", Duration.ofSeconds(30),
            () -> commands().run("machines").out().contains("v3 ") || !third.alive());
        runner.kill();
        runner.awaitExit(Duration.ofSeconds(30));
        third.awaitExit(Duration.ofSeconds(60));
      }
    }
    FsmJar.Result again = ok("upgrade", "job");
    assertThat(again.outLines().get(0)).contains("v3 (").contains("is already the newest");
    // store check's success is the shell's exit status and its document.
    List<JsonNode> after = commands().jsonEach(verb("machines"), verb("store", "check"),
        verb("ls", "--reverse", "--limit", "1"));
    JsonNode versions = after.get(0).get(0).get("versions");
    assertThat(versions.get(2).get("tasks").get("runnable").asInt()).isEqualTo(2000);
    assertThat(after.get(1).get("matches").asBoolean()).isTrue();
    // The newest task: the runner's one worker holds the oldest.
    String some = after.get(2).get(0).get("id").asText();
    List<String> reasons = new ArrayList<>();
    json("history", some).forEach(e -> reasons.add(e.get("reason").asText()));
    assertThat(reasons).as("moved once per upgrade").containsExactly("upgraded v1→v2",
        "upgraded v2→v3");
  }

  /** Version number to id of the machine {@code fsm machines --output json} lists first. */
  private static Map<Integer, String> ids(JsonNode machines) {
    Map<Integer, String> ids = new java.util.HashMap<>();
    for (JsonNode v : machines.get(0).get("versions")) {
      ids.put(v.get("number").asInt(), v.get("id").asText());
    }
    return ids;
  }

  /** The id v2 would get: the hash of its text, as a dry run prints it. */
  private static String id2Of(String strategy) {
    return dev.fsm.store.MachineVersion.idOf(v2(strategy));
  }

  private String version(String task) throws IOException {
    return json("show", task).get("version").asText();
  }

  private String versionQuietly(String task) {
    try {
      return version(task);
    } catch (IOException | AssertionError e) {
      return null;
    }
  }

  private void write(String text) throws IOException {
    Path file = dir.resolve("machines/job.yaml");
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
  }

  private StoreCommands commands() {
    return new StoreCommands(dir, "store");
  }

  private FsmJar.Result ok(String... args) {
    return commands().ok(args);
  }

  private JsonNode json(String... args) throws IOException {
    return commands().json(args);
  }
}

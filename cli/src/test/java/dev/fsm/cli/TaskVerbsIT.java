package dev.fsm.cli;

import static dev.fsm.cli.StoreCommands.verb;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The task verbs (start, send, signal, ls, show, history, stats, machines) on the real jar. */
class TaskVerbsIT {

  private static final List<String> TASK_KEYS = List.of("id", "machine", "version", "state",
      "status", "context", "attempt", "errors", "created", "state_entered", "last_attempt", "due",
      "updated", "lease", "pausing");

  @TempDir Path dir;

  @BeforeEach
  void machines() throws IOException {
    Files.createDirectories(dir.resolve("machines"));
    // review waits for a signal, so tasks can be steered without a runner.
    Files.writeString(dir.resolve("machines/approval.yaml"), """
        machine: approval
        states:
          review:
            on: {approve: done, reject: rejected}
          done: {final: completed}
          rejected: {final: failed}
        """);
    Files.writeString(dir.resolve("machines/order.yaml"), """
        machine: order
        states:
          pay:
            run: builtin:noop
            on: {ok: await_signature}
          await_signature:
            on: {signed: delivered}
          delivered: {final: completed}
        """);
  }

  /** The store the test runs on, as --store names it; a subclass runs the tests on another. */
  String store() {
    return "store";
  }

  private FsmJar.Result fsm(String... args) {
    return new StoreCommands(dir, store()).run(args);
  }

  private FsmJar.Result ok(String... args) {
    return new StoreCommands(dir, store()).ok(args);
  }

  private JsonNode json(String... args) throws IOException {
    return new StoreCommands(dir, store()).json(args);
  }

  /** Verbs whose output a test does not check here, in one shell: see {@link StoreCommands}. */
  @SafeVarargs
  private List<JsonNode> jsonEach(List<String>... verbs) throws IOException {
    return new StoreCommands(dir, store()).jsonEach(verbs);
  }

  @Test
  void startPrintsTheIdAndShowFindsTheTaskByItsIdOrAUniquePrefix() {
    FsmJar.Result started = ok("start", "approval");
    String id = started.out().strip();
    assertThat(id).matches("[0-9A-Z]{26}");
    assertThat(started.err()).matches("started task " + id + " of approval v1 \\([0-9a-f]{12}\\)"
        + " in state review, waiting\n");

    FsmJar.Result shown = ok("show", id);
    assertThat(shown.out()).contains("task      " + id + "\n", "status    waiting\n",
        "state     review\n", "machine   approval v1 (", "lease     none\n", "context\n  { }\n",
        "errors  none\n", "history  none\n");
    assertThat(ok("show", id.substring(0, 24)).out()).isEqualTo(shown.out());

    ok("start", "approval", "--id", id.substring(0, 20) + "x");
    FsmJar.Result ambiguous = fsm("show", id.substring(0, 20));
    assertThat(ambiguous.exit()).isEqualTo(1);
    assertThat(ambiguous.err()).startsWith("fsm: task id `" + id.substring(0, 20)
        + "` is ambiguous: it starts ").endsWith("; give more of the id\n");
  }

  @Test
  void startTakesAnIdAContextFileAndATime() throws IOException {
    Files.writeString(dir.resolve("ctx.json"), "{\"order\": 42, \"items\": [\"a\"]}");
    FsmJar.Result r = ok("start", "order", "--id", "a1", "--context", "@ctx.json", "--at",
        "1h");
    assertThat(r.out()).isEqualTo("a1\n");
    List<JsonNode> shown = jsonEach(verb("show", "a1"),
        verb("start", "machines/order.yaml", "--id", "a2", "--at", "2030-01-31T09:00:00Z"),
        verb("show", "a2"));
    JsonNode task = shown.get(0);
    assertThat(task.get("context").get("order").asInt()).isEqualTo(42);
    Instant due = Instant.parse(task.get("due").asText());
    assertThat(due).isBetween(Instant.now().plus(Duration.ofMinutes(55)),
        Instant.now().plus(Duration.ofMinutes(61)));
    assertThat(task.get("status").asText()).as("its action may not run yet")
        .isEqualTo("sleeping");
    assertThat(r.err()).endsWith(" in state pay, sleeping\n");
    assertThat(shown.get(2).get("due").asText()).isEqualTo("2030-01-31T09:00:00.000Z");

    FsmJar.Result taken = fsm("start", "approval", "--id", "a1");
    assertThat(taken.exit()).isEqualTo(1);
    assertThat(taken.err()).isEqualTo("fsm: a task `a1` exists already; choose another --id, or"
        + " leave it out to get a generated one\n");
    FsmJar.Result badContext = fsm("start", "approval", "--context", "[1]");
    assertThat(badContext.exit()).isEqualTo(2);
    assertThat(badContext.err()).isEqualTo("fsm: --context must be a JSON object, like"
        + " {\"key\": \"value\"}\n");
    assertThat(fsm("start", "approval", "--context", "@missing.json").err())
        .contains("--context @missing.json: no such file missing.json");
  }

  @Test
  void startFromAFileChecksEveryLineFirstThenStartsThemAll() throws IOException {
    Files.writeString(dir.resolve("bad.jsonl"), """
        {"id": "b1"}
        {"id": "b2", "colour": "red"}

        {"id": "b3", "context": [1]}
        """);
    FsmJar.Result bad = fsm("start", "approval", "--from", "bad.jsonl");
    assertThat(bad.exit()).isEqualTo(1);
    assertThat(bad.err()).isEqualTo("""
        bad.jsonl:2: unknown key `colour`; a line may have id, context and at
        bad.jsonl:4: `context` must be a JSON object
        fsm: 2 bad lines in bad.jsonl; no task was started. Fix them and run the command again
        """);
    assertThat(bad.out()).isEmpty();

    Files.writeString(dir.resolve("good.jsonl"), """
        {"id": "b1", "context": {"n": 1}}
        {"id": "b2", "at": "10m"}
        {}
        """);
    FsmJar.Result good = ok("start", "approval", "--from", "good.jsonl");
    assertThat(good.outLines()).hasSize(3).startsWith("b1", "b2");
    assertThat(good.err()).isEqualTo("started 3 tasks of approval from good.jsonl\n");

    FsmJar.Result again = fsm("start", "approval", "--from", "good.jsonl");
    assertThat(again.exit()).isEqualTo(1);
    assertThat(again.err()).isEqualTo("fsm: lines 1-3 of good.jsonl failed: task `b1` exists"
        + " already, perhaps started by an earlier run of this file; no task was started. To"
        + " start the rest, leave out the lines whose tasks exist (`fsm ls -q --machine approval"
        + " --limit 3` lists their ids) and run it again\n");
    assertThat(json("ls")).hasSize(3);
  }

  @Test
  void startFromStdinOrAPipeReadsItOnceAndStartsEveryTask() throws IOException {
    String lines = "{\"id\": \"p1\"}\n{\"id\": \"p2\"}\n";
    FsmJar.Result dash = FsmJar.piped(dir, lines, "start", "approval", "--from", "-",
        "--store", store());
    assertThat(dash.exit()).as(dash.err()).isZero();
    assertThat(dash.outLines()).containsExactly("p1", "p2");
    assertThat(dash.err()).isEqualTo("started 2 tasks of approval from stdin\n");

    // /dev/stdin is a pipe here: read twice, its second read would be empty.
    FsmJar.Result devStdin = FsmJar.piped(dir, lines.replace("p", "q"), "start", "approval",
        "--from", "/dev/stdin", "--store", store());
    assertThat(devStdin.exit()).as(devStdin.err()).isZero();
    assertThat(devStdin.outLines()).containsExactly("q1", "q2");

    FsmJar.Result bad = FsmJar.piped(dir, "{\"id\": \"r1\"}\n{\"colour\": 1}\n", "start",
        "approval", "--from", "-", "--store", store());
    assertThat(bad.exit()).isEqualTo(1);
    assertThat(bad.err()).startsWith("stdin:2: unknown key `colour`");
    assertThat(json("ls")).hasSize(4);
  }

  @Test
  void lsFiltersByMachineStateAndStatusAndSaysWhenMoreExist() throws IOException {
    jsonEach(verb("start", "approval", "--id", "a1"), verb("start", "approval", "--id", "a2"),
        verb("start", "order", "--id", "o1"), verb("send", "a2", "pause"));

    FsmJar.Result all = ok("ls");
    assertThat(all.outLines()).hasSize(4);
    assertThat(all.outLines().get(0)).matches("ID +MACHINE +STATE +STATUS +ATTEMPT +DUE/UPDATED");
    assertThat(all.outLines().get(2)).matches("a2 +approval +review +paused +0 +[-0-9: ]+");
    assertThat(ok("ls", "--machine", "order").outLines()).hasSize(2).last().asString()
        .startsWith("o1");
    assertThat(ok("ls", "--status", "paused").outLines()).hasSize(2).last().asString()
        .startsWith("a2");
    assertThat(ok("ls", "--state", "pay").outLines()).hasSize(2);
    FsmJar.Result none = ok("ls", "--machine", "approval", "--state", "done");
    assertThat(none.out()).isEmpty();
    assertThat(none.err()).isEqualTo("no tasks match\n");
    FsmJar.Result noState = fsm("ls", "--machine", "approval", "--state", "reviw");
    assertThat(noState.exit()).isEqualTo(1);
    assertThat(noState.err()).isEqualTo("fsm: no state `reviw` in machine `approval`; did you mean"
        + " `review`? (`fsm stats` lists each machine's states)\n");

    FsmJar.Result limited = ok("ls", "--limit", "2");
    assertThat(limited.outLines()).hasSize(3);
    assertThat(limited.err()).isEqualTo("showing 2 of 3 matching tasks; narrow with"
        + " --machine, --state or --status, or raise --limit\n");

    JsonNode tasks = json("ls", "--status", "paused");
    assertThat(tasks.isArray()).isTrue();
    assertThat(tasks.get(0).fieldNames()).toIterable().containsExactlyElementsOf(TASK_KEYS);
    assertThat(tasks.get(0).get("context").isObject()).isTrue();

    FsmJar.Result typo = fsm("ls", "--machine", "ordr");
    assertThat(typo.exit()).isEqualTo(1);
    assertThat(typo.err()).isEqualTo("fsm: no machine `ordr` in this store; did you mean"
        + " `order`? (`fsm machines` lists them)\n");
  }

  @Test
  void sendMovesStatusesByTheTableAndRefusesTheRest() {
    ok("start", "approval", "--id", "a1");
    assertThat(ok("send", "a1", "pause", "--reason", "on hold").out())
        .isEqualTo("a1: pause sent; waiting -> paused\n");

    FsmJar.Result refused = fsm("send", "a1", "complete");
    assertThat(refused.exit()).isEqualTo(1);
    assertThat(refused.out()).isEmpty();
    assertThat(refused.err()).isEqualTo("fsm: task `a1`: `complete` is not allowed while the"
        + " task is paused; allowed now: run, pause, sleep, kill, checkpoint, release\n");

    FsmJar.Result unknown = fsm("send", "a1", "finish");
    assertThat(unknown.exit()).isEqualTo(2);
    assertThat(unknown.err()).contains("unknown command `finish`").contains("(one of: run,"
        + " resume, pause, sleep, kill, error, complete, checkpoint, release, redrive)");

    assertThat(ok("send", "a1", "sleep", "--until", "5m").out())
        .isEqualTo("a1: sleep sent; paused -> sleeping\n");
    assertThat(ok("send", "a1", "kill").out()).isEqualTo("a1: kill sent; sleeping -> killed\n");
    assertThat(fsm("send", "a1", "run").err()).contains("the task is killed, which is final");

    FsmJar.Result history = ok("history", "a1");
    assertThat(history.outLines()).hasSize(4);
    assertThat(history.outLines().get(0))
        .matches("TIME +FROM +EVENT +TO +DURATION +ATTEMPT +BY +REASON");
    assertThat(history.outLines().get(1)).matches(
        "[-0-9]+ [0-9:]+ +review +pause +review +0 +user:\\S+ +on hold");
    assertThat(fsm("send", "nope", "run").err()).isEqualTo("fsm: no task `nope`; `fsm ls` lists"
        + " tasks\n");
  }

  @Test
  void bulkSendReportsChangedAndRefusedAndDryRunChangesNothing() throws IOException {
    jsonEach(verb("start", "approval", "--id", "a1"), verb("start", "approval", "--id", "a2"),
        verb("start", "order", "--id", "o1"), verb("send", "a2", "pause"));

    FsmJar.Result dry = fsm("send", "--machine", "approval", "complete", "--dry-run");
    assertThat(dry.exit()).isEqualTo(1);
    assertThat(dry.out()).isEqualTo("complete (dry run): 2 tasks matched, 1 would change,"
        + " 1 refused\n  refused task `a2`: `complete` is not allowed while the task is paused;"
        + " allowed now: run, pause, sleep, kill, checkpoint, release\n");
    assertThat(dry.err()).isEqualTo("fsm: complete was refused by 1 task (dry run: nothing was"
        + " changed)\n");
    List<JsonNode> sent = jsonEach(verb("show", "a1"),
        verb("send", "--machine", "approval", "--status", "runnable", "complete"),
        verb("send", "--machine", "approval", "--status", "waiting", "complete"),
        verb("show", "a1"), verb("show", "o1"));
    assertThat(sent.get(0).get("status").asText()).isEqualTo("waiting");

    // a1 waits for a signal: --status runnable does not select it, --status waiting does.
    assertThat(sent.get(1).get("matched").asInt()).isZero();
    JsonNode report = sent.get(2);
    assertThat(report.fieldNames()).toIterable().containsExactly("command", "dry_run",
        "matched", "changed", "refused");
    assertThat(report.get("changed")).hasSize(1);
    assertThat(report.get("changed").get(0).asText()).isEqualTo("a1");
    assertThat(sent.get(3).get("status").asText()).isEqualTo("completed");
    assertThat(sent.get(4).get("status").asText()).isEqualTo("runnable");

    assertThat(fsm("send", "--machine", "nope", "run").err()).isEqualTo("fsm: no machine `nope`"
        + " in this store (`fsm machines` lists them)\n");
  }

  @Test
  void signalFiresAnEdgeOfAWaitingStateAndRefusesOthers() throws IOException {
    ok("start", "approval", "--id", "a1", "--context", "{\"n\": 1}");
    FsmJar.Result wrong = fsm("signal", "a1", "ship");
    assertThat(wrong.exit()).isEqualTo(1);
    assertThat(wrong.err()).isEqualTo("fsm: state `review` of task `a1` has no edge for event"
        + " `ship`; its events: approve, reject\n");

    assertThat(ok("signal", "a1", "approve", "--context", "{\"by\": \"ann\"}").out())
        .isEqualTo("a1: review --approve--> done, completed\n");
    List<JsonNode> signalled = jsonEach(verb("show", "a1"), verb("history", "a1"));
    JsonNode shown = signalled.get(0);
    assertThat(shown.get("state").asText()).isEqualTo("done");
    assertThat(shown.get("context").toString()).isEqualTo("{\"n\":1,\"by\":\"ann\"}");
    JsonNode entry = shown.get("history").get(0);
    assertThat(entry.fieldNames()).toIterable().containsExactly("time", "from", "event", "to",
        "duration_ms", "attempt", "by", "reason");
    assertThat(entry.get("event").asText()).isEqualTo("approve");
    assertThat(signalled.get(1)).hasSize(1);

    ok("start", "order", "--id", "o1");
    assertThat(fsm("signal", "o1", "signed").err()).isEqualTo("fsm: task `o1` is in state `pay`,"
        + " which runs an action; only states with no `run` or `wait` take signals\n");
    assertThat(fsm("signal", "a1", "approve").err()).contains("is completed, which is final");
  }

  @Test
  void statsAndMachinesCountTasksPerStateAndMachine() throws IOException {
    // Before any start there is no store: the files are listed, and that is said, exit 1.
    FsmJar.Result before = fsm("machines");
    assertThat(before.exit()).isEqualTo(1);
    assertThat(before.err()).contains("; these machines have no tasks there. `fsm start"
        + " MACHINE` creates the store");
    assertThat(before.outLines()).hasSize(3);
    assertThat(before.outLines().get(1)).matches("approval +- +- +none +machines/approval.yaml");

    jsonEach(verb("start", "approval", "--id", "a1"), verb("start", "approval", "--id", "a2"),
        verb("send", "a2", "pause"));

    FsmJar.Result machines = ok("machines");
    assertThat(machines.outLines().get(1)).matches(
        "approval +v1 [0-9a-f]{12} \\(newest\\) +[-0-9]+ [0-9:]+ +1 waiting, 1 paused"
            + " +machines/approval.yaml");
    assertThat(machines.outLines().get(2)).startsWith("order ");
    JsonNode listed = json("machines");
    assertThat(listed.get(0).fieldNames()).toIterable().containsExactly("machine", "file",
        "file_differs", "versions", "tasks", "breaker");
    assertThat(listed.get(0).get("breaker").isNull()).as("approval has no breaker").isTrue();
    assertThat(listed.get(0).get("versions").get(0).fieldNames()).toIterable()
        .containsExactly("number", "id", "registered", "newest", "tasks");
    assertThat(listed.get(0).get("tasks").get("paused").asLong()).isEqualTo(1);
    assertThat(listed.get(1).get("versions")).isEmpty();

    FsmJar.Result stats = ok("stats", "approval");
    assertThat(stats.outLines().get(0)).matches(
        "MACHINE +STATE +TASKS +SAMPLES +P50 +P95 +P99 +ERRORS +TIMEOUT");
    assertThat(stats.outLines().get(1)).matches(
        "approval +review +1 waiting, 1 paused +0 +- +- +- +0.0% +-");
    JsonNode states = json("stats");
    assertThat(states.get(0).fieldNames()).toIterable().containsExactly("machine", "state",
        "counts", "samples", "p50_ms", "p95_ms", "p99_ms", "error_rate", "timeout", "breaker");
    assertThat(states.get(0).get("counts").get("waiting").asLong()).isEqualTo(1);
    assertThat(states.get(0).get("counts").get("runnable").asLong()).isZero();
    assertThat(fsm("stats", "nope").exit()).isEqualTo(1);
  }

  @Test
  void userMistakesAreClearMessagesNeverStackTraces() throws IOException {
    FsmJar.Result noStore = fsm("ls");
    assertThat(noStore.exit()).isEqualTo(1);
    assertThat(noStore.err()).isEqualTo("fsm: no fsm store at store; start a task there first"
        + " with `fsm start MACHINE`, or name a store with --store PATH or $FSM_STORE\n");
    assertThat(dir.resolve("store")).doesNotExist();

    FsmJar.Result unknownMachine = fsm("start", "aproval");
    assertThat(unknownMachine.exit()).isEqualTo(1);
    assertThat(unknownMachine.err()).isEqualTo("fsm: no machine `aproval` in machines folder"
        + " machines; did you mean `approval`?\n");

    Files.writeString(dir.resolve("broken.yaml"), "machine: broken\nstates:\n  a: {on: {ok: b}}\n");
    FsmJar.Result invalid = fsm("start", "broken.yaml");
    assertThat(invalid.exit()).isEqualTo(1);
    assertThat(invalid.err()).contains("broken.yaml:3:").contains("error:")
        .endsWith("fsm: machine file broken.yaml is not valid; fix the errors above (`fsm"
            + " validate broken.yaml` checks it again)\n");

    ok("start", "approval", "--id", "a1");
    FsmJar.Result unknownTask = fsm("show", "zz");
    assertThat(unknownTask.exit()).isEqualTo(1);
    assertThat(unknownTask.err()).isEqualTo("fsm: no task `zz`; `fsm ls` lists tasks\n");
    assertThat(fsm("history", "zz").exit()).isEqualTo(1);
    for (FsmJar.Result r : List.of(noStore, unknownMachine, invalid, unknownTask)) {
      assertThat(r.err()).doesNotContain("Exception").doesNotContain("\tat ");
    }
  }
}

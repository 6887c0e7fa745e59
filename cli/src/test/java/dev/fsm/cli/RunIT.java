package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * {@code fsm run} on the real jar as a user runs it: machines and scripts in a folder, the runner
 * in its own process, other fsm commands reaching it while it runs, signals, crashes and plugins.
 */
@Isolated("asserts on time")
class RunIT {

  /** A program that records its pid, then runs 60 s unless the file {@code fast} exists. */
  private static final String LONG_SCRIPT = """
      #!/bin/sh
      cat >/dev/null
      echo $$ > "$FSM_TASK_ID.pid"
      [ -e fast ] || sleep 60
      """;

  @TempDir Path dir;

  private final List<FsmProcess> background = new ArrayList<>();

  @AfterEach
  void stopLeftovers() throws IOException {
    background.forEach(FsmProcess::close);
    // Programs of a SIGKILLed runner outlive it; end those the test started.
    if (!Files.isDirectory(dir.resolve("machines"))) {
      return;
    }
    try (Stream<Path> files = Files.list(dir.resolve("machines"))) {
      for (Path pidFile : files.filter(f -> f.toString().endsWith(".pid")).toList()) {
        String pid = Files.readString(pidFile).strip();
        if (!pid.isEmpty()) {
          SupervisorIT.stopIfAProgram(Long.parseLong(pid));
        }
      }
    }
  }

  @Test
  void untilIdleRunsAChainOfProgramsBuiltinsAndAWaitToTheEnd() throws IOException {
    machine("chain", """
        machine: chain
        states:
          fetch:
            run: scripts/fetch.sh
            on: {ok: check}
          check:
            run: builtin:noop
            on: {ok: cool}
          cool:
            wait: 200ms
            on: {ok: tag}
          tag:
            run: builtin:emit tagged
            on: {tagged: done}
          done: {final: completed}
        """);
    script("fetch.sh", """
        #!/bin/sh
        cat >/dev/null
        printf '{"event":"ok","context":{"fetched":"%s","in":"%s"}}\\n' "$FSM_TASK_ID" "$FSM_STATE"
        """);
    List<String> ids = new ArrayList<>();
    for (JsonNode started : jsonEach(Collections.nCopies(3, List.of("start", "chain")))) {
      ids.add(started.get("id").asText());
    }

    FsmJar.Result run = ok("run", "--until-idle", "--workers", "2");
    assertThat(run.err()).contains("fsm run: done: ");

    Map<String, Histories.Entry> tasks = Histories.read(storeAt());
    assertThat(tasks).containsOnlyKeys(ids);
    for (Histories.Entry e : tasks.values()) {
      assertThat(e.task().status().word()).isEqualTo("completed");
      assertThat(e.task().context()).contains("\"fetched\":\"" + e.task().id() + "\"",
          "\"in\":\"fetch\"");
      assertThat(Histories.problem(e.history(), List.of("fetch", "check", "cool", "tag", "done")))
          .isEmpty();
    }
  }

  @Test
  void theExampleOrderRunsItsScriptsStopsAtTheSignatureAndASignalCompletesIt()
      throws IOException {
    Trees.copy(FsmJar.repo().resolve("machines"), dir.resolve("machines"));
    String id = ok("start", "order", "--context", "{\"amount\": 49.90, \"address\": \"1 Main St\"}")
        .out().strip();

    ok("run", "--until-idle");

    JsonNode waiting = json("show", id);
    assertThat(waiting.get("state").asText()).isEqualTo("await_signature");
    assertThat(waiting.get("status").asText()).isEqualTo("waiting");
    assertThat(waiting.get("context").get("charged").asText()).isEqualTo("49.90");
    assertThat(waiting.get("context").get("tracking").asText()).startsWith("DHL-");

    ok("signal", id, "signed");
    JsonNode done = json("show", id);
    assertThat(done.get("state").asText()).isEqualTo("delivered");
    assertThat(done.get("status").asText()).isEqualTo("completed");
    assertThat(Histories.problem(Histories.read(storeAt()).get(id).history(),
        List.of("pay", "ship", "await_signature"))).isEmpty();
  }

  @Test
  void onceRunsOnePassOverWhatIsDueNow() throws IOException {
    machine("two", """
        machine: two
        states:
          first:
            run: builtin:noop
            on: {ok: second}
          second:
            run: builtin:noop
            on: {ok: done}
          done: {final: completed}
        """);
    String now = ok("start", "two").out().strip();
    String later = ok("start", "two", "--at", "1h").out().strip();

    ok("run", "--once");

    List<JsonNode> shown = jsonEach(List.of(List.of("show", now), List.of("show", later)));
    assertThat(shown.get(0).get("state").asText()).isEqualTo("second");
    assertThat(shown.get(1).get("state").asText()).isEqualTo("first");
    assertThat(shown.get(1).get("history")).isEmpty();
  }

  @Test
  void programsMergeContextSleepFailWithRetriesEmitStrayEventsAndTimeOut() throws IOException {
    machine("merge", """
        machine: merge
        states:
          enrich:
            run: scripts/enrich.sh
            on: {ok: nap}
          nap:
            run: scripts/nap.sh
            on: {ok: done}
          done: {final: completed}
        """);
    script("enrich.sh", """
        #!/bin/sh
        input=$(cat)
        case $input in *kept*) saw=true ;; *) saw=false ;; esac
        echo "a progress line, not the result"
        echo '{"event": "ok", "context": {"x": 2, "saw_input": '$saw'}}'
        """);
    script("nap.sh", """
        #!/bin/sh
        cat >/dev/null
        if [ "$FSM_ATTEMPT" = 1 ]; then echo '{"sleep": "300ms"}'; else echo '{"event": "ok"}'; fi
        """);
    machine("flaky", """
        machine: flaky
        states:
          call:
            run: scripts/fail.sh
            retry: {max_errors: 2, window: 1h, backoff: 100ms}
            on: {ok: done}
          done: {final: completed}
        """);
    script("fail.sh", """
        #!/bin/sh
        echo "upstream said no (attempt $FSM_ATTEMPT)" >&2
        exit 3
        """);
    machine("stray", """
        machine: stray
        states:
          guess:
            run: scripts/stray.sh
            retry: {max_errors: 1, window: 1h, backoff: 100ms}
            on: {ok: done}
          done: {final: completed}
        """);
    script("stray.sh", """
        #!/bin/sh
        echo '{"event": "bogus"}'
        """);
    machine("slow", """
        machine: slow
        states:
          crawl:
            run: scripts/slow.sh
            timeout: 500ms
            retry: {max_errors: 1, window: 1h, backoff: 100ms}
            on: {ok: done}
          done: {final: completed}
        """);
    machine("slowedge", """
        machine: slowedge
        states:
          crawl:
            run: scripts/slow.sh
            timeout: 500ms
            on: {ok: done, timeout: late}
          done: {final: completed}
          late: {final: failed}
        """);
    script("slow.sh", """
        #!/bin/sh
        sleep 30
        """);
    List<JsonNode> tasks = jsonEach(List.of(
        List.of("start", "merge", "--context", "{\"x\": 1, \"kept\": true}"),
        List.of("start", "flaky"), List.of("start", "stray"), List.of("start", "slow"),
        List.of("start", "slowedge")));
    List<List<String>> shows = tasks.stream()
        .map(t -> List.of("show", t.get("id").asText())).toList();

    long started = System.nanoTime();
    ok("run", "--until-idle");
    // The 30 s scripts were stopped at their 500 ms timeouts.
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(15));

    List<JsonNode> after = jsonEach(shows);
    JsonNode merged = after.get(0);
    assertThat(merged.get("status").asText()).isEqualTo("completed");
    assertThat(merged.get("context").toString())
        .isEqualTo("{\"x\":2,\"kept\":true,\"saw_input\":true}");
    List<String> napEvents = new ArrayList<>();
    merged.get("history").forEach(h -> {
      if (h.get("from").asText().equals("nap")) {
        napEvents.add(h.get("event").asText() + "@" + h.get("attempt").asInt());
      }
    });
    assertThat(napEvents).containsExactly("sleep@1", "ok@2");

    JsonNode failed = after.get(1);
    assertThat(failed.get("status").asText()).isEqualTo("failed");
    assertThat(failed.get("errors")).hasSize(2);
    assertThat(failed.get("errors").get(0).get("message").asText())
        .contains("upstream said no (attempt 1)");
    assertThat(failed.get("errors").get(1).get("message").asText())
        .contains("upstream said no (attempt 2)");

    JsonNode strayed = after.get(2);
    assertThat(strayed.get("status").asText()).isEqualTo("failed");
    assertThat(strayed.get("errors").get(0).get("message").asText())
        .contains("event `bogus`", "no edge for it");

    JsonNode timedOut = after.get(3);
    assertThat(timedOut.get("status").asText()).isEqualTo("failed");
    assertThat(timedOut.get("errors").get(0).get("message").asText())
        .contains("timed out after 500ms");

    JsonNode late = after.get(4);
    assertThat(late.get("state").asText()).isEqualTo("late");
    assertThat(late.get("status").asText()).isEqualTo("failed");
  }

  @Test
  void commandsReachTheRunnerWhileItRunsAndPauseStopsTheProgramAtOnce() throws IOException {
    longMachine("long", "2m");
    FsmProcess runner = runInBackground("run", "--workers", "2");

    String id = ok("start", "long").out().strip();
    Path programPid = pidFile(id);
    Duration pickedUp = Await.until("the runner to pick up the new task", Duration.ofSeconds(5),
        () -> hasPid(programPid));
    assertThat(pickedUp).isLessThan(Duration.ofSeconds(3));
    long program = pid(programPid);

    assertThat(ok("ls").out()).contains(id);
    assertThat(json("show", id).get("state").asText()).isEqualTo("work");

    long sending = System.nanoTime();
    assertThat(ok("send", id, "pause").out()).contains("runnable -> paused");
    assertThat(Duration.ofNanos(System.nanoTime() - sending)).isLessThan(Duration.ofSeconds(5));
    Await.until("the paused program to end", Duration.ofSeconds(3), () -> !alive(program));

    JsonNode paused = json("show", id);
    assertThat(paused.get("status").asText()).isEqualTo("paused");
    assertThat(paused.get("errors")).isEmpty();
    List<String> entries = new ArrayList<>();
    paused.get("history").forEach(h -> entries.add(h.get("event").asText() + " by "
        + h.get("by").asText().replaceAll(":.*", "")));
    assertThat(entries).containsExactly("pause by user");

    Files.delete(programPid);
    ok("send", id, "run");
    Await.until("the runner to run the task again", Duration.ofSeconds(5),
        () -> hasPid(programPid));
    assertThat(pid(programPid)).isNotEqualTo(program);
    assertThat(runner.alive()).isTrue();
  }

  @Test
  void aStopLetsAShortActionFinishAndRecordsItsOutcome() throws IOException {
    machine("short", """
        machine: short
        states:
          work:
            run: scripts/short.sh
            on: {ok: done}
          done: {final: completed}
        """);
    script("short.sh", """
        #!/bin/sh
        echo $$ > "$FSM_TASK_ID.pid"
        sleep 1
        """);
    String id = ok("start", "short").out().strip();
    FsmProcess runner = runInBackground("run");
    Await.until("the action to start", Duration.ofSeconds(10),
        () -> hasPid(pidFile(id)));

    runner.terminate();
    assertThat(runner.awaitExit(Duration.ofSeconds(10))).as(runner.err()).isZero();
    assertThat(runner.err()).contains("fsm run: stopping: letting 1 running action(s) finish");
    JsonNode done = json("show", id);
    assertThat(done.get("status").asText()).isEqualTo("completed");
  }

  @Test
  void aStopReleasesALongActionAfterTheGraceAndASecondStopEndsAtOnce() throws IOException {
    longMachine("long", "2m");
    String graceful = ok("start", "long").out().strip();
    FsmProcess first = runInBackground("run", "--grace", "300ms");
    Await.until("the action to start", Duration.ofSeconds(10),
        () -> hasPid(pidFile(graceful)));
    first.terminate();
    assertThat(first.awaitExit(Duration.ofSeconds(10))).as(first.err()).isZero();
    JsonNode released = json("show", graceful);
    assertThat(released.get("status").asText()).isEqualTo("runnable");
    assertThat(released.get("lease").isNull()).isTrue();
    assertThat(released.get("history").get(0).get("event").asText()).isEqualTo("release");
    Files.delete(pidFile(graceful));

    // A program that ignores SIGTERM: only the second stop's SIGKILL ends it early.
    machine("stubborn", """
        machine: stubborn
        states:
          work:
            run: scripts/stubborn.sh
            timeout: 2m
            on: {ok: done}
          done: {final: completed}
        """);
    script("stubborn.sh", """
        #!/bin/sh
        trap '' TERM
        echo $$ > "$FSM_TASK_ID.pid"
        [ -e fast ] && exit 0
        while true; do sleep 0.1; done
        """);
    String stubborn = ok("start", "stubborn").out().strip();
    FsmProcess second = runInBackground("run");
    Await.until("both actions to start", Duration.ofSeconds(10),
        () -> hasPid(pidFile(graceful)) && hasPid(pidFile(stubborn)));
    List<Long> programs = List.of(pid(pidFile(graceful)), pid(pidFile(stubborn)));
    second.terminate();
    Await.until("the first stop to be seen", Duration.ofSeconds(5),
        () -> second.err().contains("stopping:"));
    long stopping = System.nanoTime();
    second.terminate();
    second.awaitExit(Duration.ofSeconds(15));
    assertThat(Duration.ofNanos(System.nanoTime() - stopping)).as(second.err())
        .isLessThan(Duration.ofSeconds(3));
    Await.until("the programs to end", Duration.ofSeconds(2),
        () -> programs.stream().noneMatch(RunIT::alive));

    if (!leasesEndWithTheOwner()) {
      return;
    }
    // The leases the runner held are dropped when the next runner opens the store.
    Files.writeString(dir.resolve("machines/fast"), "");
    ok("run", "--until-idle");
    assertThat(json("show", graceful).get("status").asText()).isEqualTo("completed");
    assertThat(json("show", stubborn).get("status").asText()).isEqualTo("completed");
  }

  @Test
  void aStopParksAnAtMostOnceActionInFaultAtOnceWithoutItsLease() throws IOException {
    longMachine("once", "0");
    String id = ok("start", "once").out().strip();
    FsmProcess runner = runInBackground("run", "--grace", "300ms");
    Await.until("the action to start", Duration.ofSeconds(10), () -> hasPid(pidFile(id)));
    runner.terminate();
    assertThat(runner.awaitExit(Duration.ofSeconds(10))).as(runner.err()).isZero();

    // Parked by the stop itself, not by whichever runner claims it after the lease ends.
    JsonNode parked = json("show", id);
    assertThat(parked.get("status").asText()).isEqualTo("fault");
    assertThat(parked.get("lease").isNull()).isTrue();
    assertThat(parked.get("errors").get(0).get("message").asText())
        .contains("attempt 1 of at-most-once state `work` (timeout: 0) was interrupted");
  }

  @Test
  void anAtMostOnceStateInterruptedByACrashGoesToFaultAndRunsAgainWhenWoken()
      throws IOException {
    longMachine("charge", "0");
    String id = ok("start", "charge").out().strip();
    FsmProcess runner = runInBackground("run");
    Await.until("the action to start", Duration.ofSeconds(10),
        () -> hasPid(pidFile(id)));
    runner.kill();
    runner.awaitExit(Duration.ofSeconds(5));
    Files.writeString(dir.resolve("machines/fast"), "");

    ok("run", "--until-idle");
    JsonNode fault = json("show", id);
    assertThat(fault.get("status").asText()).isEqualTo("fault");
    assertThat(fault.get("errors").get(0).get("message").asText())
        .contains("attempt 1 of at-most-once state `work` (timeout: 0) was interrupted");

    ok("send", id, "sleep", "--until", "1s");
    ok("run", "--until-idle");
    JsonNode done = json("show", id);
    assertThat(done.get("status").asText()).isEqualTo("completed");
  }

  @Test
  void programsThatAKilledRunnerLeftRunningAreStoppedByTheNextRunner() throws IOException {
    longMachine("slow", "1h");
    String id = ok("start", "slow").out().strip();
    FsmProcess runner = runInBackground("run");
    Await.until("the action to start", Duration.ofSeconds(10), () -> hasPid(pidFile(id)));
    long program = pid(pidFile(id));
    // The runner records a program just after starting it; a kill before that record is a
    // window only the supervisor closes, so this test kills after it.
    Await.until("the runner to record the program", Duration.ofSeconds(10),
        () -> Files.exists(dir.resolve("store/programs/" + program)));
    // The supervisor would stop the program at once (SupervisorIT); killed first, as by an
    // out-of-memory killer, it leaves the ledger as the last line.
    ProcessHandle supervisor = SupervisorIT.supervisorOf(runner);
    supervisor.destroyForcibly();
    Await.until("the supervisor to die", Duration.ofSeconds(10), () -> !supervisor.isAlive());
    runner.kill();
    runner.awaitExit(Duration.ofSeconds(5));
    assertThat(running(program)).as("a program leads its own group, so outlives a SIGKILL")
        .isTrue();
    Files.delete(pidFile(id));

    FsmProcess next = runInBackground("run");
    // A bound for a busy machine, not a speed goal: a fresh JVM opens the store first.
    try {
      Await.until("the left-over program to be stopped", Duration.ofSeconds(30),
          () -> !running(program));
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "; the next runner said: " + next.err(), e);
    }
    assertThat(next.err()).contains("stopped 1 program(s) that a runner killed earlier left");
    Await.until("the task to run again", Duration.ofSeconds(30), () -> hasPid(pidFile(id)));
  }

  @Test
  void javaActionsRunFromAPluginJarCompiledNow() throws IOException {
    Path plugins = Files.createDirectories(dir.resolve("plugins"));
    PluginJar.build(plugins.resolve("greet.jar"), "acme.Greet", """
        package acme;

        import dev.fsm.action.api.ActionContext;
        import dev.fsm.action.api.ActionResult;
        import dev.fsm.action.api.FsmAction;

        public class Greet implements FsmAction {
          @Override
          public ActionResult run(ActionContext context) {
            return ActionResult.event("greeted",
                "{\\"greeting\\": \\"hello " + context.taskId() + "\\"}");
          }
        }
        """);
    machine("hello", """
        machine: hello
        states:
          greet:
            run: java:acme.Greet
            on: {greeted: done}
          done: {final: completed}
        """);
    String id = ok("start", "hello").out().strip();

    ok("run", "--until-idle", "--plugins", "plugins");

    JsonNode done = json("show", id);
    assertThat(done.get("status").asText()).isEqualTo("completed");
    assertThat(done.get("context").get("greeting").asText()).isEqualTo("hello " + id);
  }

  @Test
  void badOptionsAndASecondRunnerAreRefused() throws IOException {
    longMachine("long", "2m");
    FsmJar.Result noWorkers = fsm("run", "--workers", "0");
    assertThat(noWorkers.exit()).isEqualTo(2);
    assertThat(noWorkers.err()).contains("--workers must be between 1 and 1024, not 0");

    Files.writeString(dir.resolve("plugins.txt"), "");
    FsmJar.Result notAFolder = fsm("run", "--plugins", "plugins.txt");
    assertThat(notAFolder.exit()).isEqualTo(1);
    assertThat(notAFolder.err()).isEqualTo("fsm: --plugins plugins.txt is not a folder; give the"
        + " folder that holds the jars of your java: actions\n");

    FsmProcess runner = runInBackground("run");
    FsmJar.Result second = fsm("run", "--until-idle");
    assertThat(second.exit()).isEqualTo(1);
    assertThat(second.err()).contains("is already served by runner", "pid " + runner.pid(),
        "one runner per embedded store");
    assertThat(runner.alive()).isTrue();
  }

  private void longMachine(String name, String timeout) throws IOException {
    machine(name, """
        machine: %s
        states:
          work:
            run: scripts/long.sh
            timeout: %s
            on: {ok: done}
          done: {final: completed}
        """.formatted(name, timeout));
    script("long.sh", LONG_SCRIPT);
  }

  private FsmProcess runInBackground(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--store", store()));
    FsmProcess p = FsmProcess.start(dir, all.toArray(String[]::new));
    background.add(p);
    return p.awaitServing();
  }

  private void machine(String name, String yaml) throws IOException {
    Files.createDirectories(dir.resolve("machines"));
    Files.writeString(dir.resolve("machines/" + name + ".yaml"), yaml);
  }

  /** A program beside the machines; programs run in the machines folder. */
  private void script(String name, String text) throws IOException {
    Path file = dir.resolve("machines/scripts/" + name);
    Files.createDirectories(file.getParent());
    Files.writeString(file, text);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** The store the test runs on, as --store names it; a subclass runs the tests on another. */
  String store() {
    return "store";
  }

  /**
   * Whether a runner stopped at once leaves no lease behind for the next runner to wait out:
   * true for the embedded store, whose leases live in its one owner; a shared store's run out.
   */
  boolean leasesEndWithTheOwner() {
    return true;
  }

  /** The store as {@link Histories#read(String)} takes it: its folder under the test's. */
  String storeAt() {
    return dir.resolve(store()).toString();
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

  /** Verbs in one shell, each one's JSON: see {@link StoreCommands#jsonEach}. */
  private List<JsonNode> jsonEach(List<List<String>> verbs) throws IOException {
    return new StoreCommands(dir, store()).jsonEach(verbs);
  }

  /** Where {@link #LONG_SCRIPT} writes its pid: relative to the machines folder. */
  private Path pidFile(String id) {
    return dir.resolve("machines/" + id + ".pid");
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

  private static boolean alive(long pid) {
    return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
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

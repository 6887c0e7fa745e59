package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile input through the real jar: machine files, contexts, times, task files and action
 * results. Each gets one clear message with the right exit status and no stack trace; nothing
 * is half-accepted.
 */
class HostileInputIT {

  private static final String FAR = "+999999999-12-31T23:59:59Z";
  private static final String RANGE = "`" + FAR + "` is out of range; give a time between"
      + " 0001-01-01 and 9999-12-31";

  @TempDir Path dir;

  private final List<FsmProcess> background = new ArrayList<>();

  @AfterEach
  void stopLeftovers() {
    background.forEach(FsmProcess::close);
  }

  @Test
  void eachHostileFileGetsOneClearErrorLine() throws Exception {
    Map<String, byte[]> files = new LinkedHashMap<>();
    files.put("huge.yaml", ("machine: x\n# " + "a".repeat(2 << 20) + "\n").getBytes(
        StandardCharsets.UTF_8));
    StringBuilder bomb = new StringBuilder("a: &a [x, x, x, x, x, x, x, x, x]\n");
    for (char c = 'b'; c <= 'k'; c++) {
      bomb.append(c).append(": &").append(c).append(" [");
      bomb.append(("*" + (char) (c - 1) + ", ").repeat(8)).append("*").append((char) (c - 1))
          .append("]\n");
    }
    files.put("bomb.yaml", bomb.toString().getBytes(StandardCharsets.UTF_8));
    files.put("deep.yaml", ("a: " + "[".repeat(200) + "]".repeat(200) + "\n").getBytes(
        StandardCharsets.UTF_8));
    byte[] garbage = new byte[4096];
    new Random(7).nextBytes(garbage);
    files.put("garbage.yaml", garbage);
    files.put("empty.yaml", new byte[0]);
    files.put("tag.yaml", "machine: !!javax.script.ScriptEngineManager [x]\nstates: {}\n"
        .getBytes(StandardCharsets.UTF_8));
    files.put("list.yaml", "- machine: x\n- states: {}\n".getBytes(StandardCharsets.UTF_8));
    for (Map.Entry<String, byte[]> file : files.entrySet()) {
      Files.write(dir.resolve(file.getKey()), file.getValue());
      FsmJar.Result r = FsmJar.run(dir, "validate", file.getKey());
      assertThat(r.exit()).as(file.getKey()).isEqualTo(1);
      assertThat(r.outLines()).as(file.getKey()).hasSize(1);
      assertThat(r.outLines().get(0)).as(file.getKey()).startsWith(file.getKey() + ":")
          .contains(": error: ");
      assertThat(r.out() + r.err()).as(file.getKey()).doesNotContain("Exception")
          .doesNotContain("\tat ");
    }
  }

  @Test
  void jsonWithTrailingTextHugeNumbersOrDuplicateKeysIsRefusedWithItsPosition() throws Exception {
    // A malformed --context is a malformed option value: a usage error, exit 2 (SPEC section 5).
    doorMachine();
    StoreCommands fsm = new StoreCommands(dir, "store");
    refused(fsm.run("start", "door", "--context", "{\"a\":1}, \"b\":2}"), 2,
        "fsm: --context is not valid JSON at column 8: more text follows the JSON value; give"
            + " exactly one");
    refused(fsm.run("start", "door", "--context", "{\"n\":1e999}"), 2,
        "fsm: --context is not valid JSON at column 6: the number 1e999 is too large; numbers"
            + " must fit a double (about 1.8e308)");
    fsm.ok("start", "door", "--id", "d1");
    refused(fsm.run("signal", "d1", "open", "--context", "{\"a\":1,\"a\":2}"), 2,
        "fsm: --context is not valid JSON at column 11: Duplicate field 'a'");
    refused(fsm.run("signal", "d1", "open", "--context", "{\"n\":-1e400} x"), 2,
        "fsm: --context is not valid JSON at column 6: the number -1e400 is too large; numbers"
            + " must fit a double (about 1.8e308)");
    Files.writeString(dir.resolve("tasks.jsonl"), "{\"id\": \"ok1\"}\n"
        + "{\"id\": \"bad\", \"context\": {\"n\": 1e999}}\n"
        + "{\"id\": \"two\"} {\"id\": \"three\"}\n");
    FsmJar.Result r = fsm.run("start", "door", "--from", "tasks.jsonl");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).contains("tasks.jsonl:2: the line is not valid JSON at column 32: the"
        + " number 1e999 is too large")
        .contains("tasks.jsonl:3: the line is not valid JSON at column 15: more text follows"
            + " the JSON value")
        .contains("2 bad lines in tasks.jsonl; no task was started");
    JsonNode task = fsm.json("show", "d1");
    assertThat(task.get("context").toString()).isEqualTo("{}");
    assertThat(task.get("state").asText()).isEqualTo("closed");
    assertThat(fsm.run("show", "ok1").exit()).isEqualTo(1);
  }

  @Test
  void anEndlessOrHugeContextFileStopsAtTheLimitWithTheOneMibMessage() throws Exception {
    doorMachine();
    StoreCommands fsm = new StoreCommands(dir, "store");
    String limit = "a task's context may hold at most 1 MiB, and this file holds more than 4 MiB;"
        + " nothing was read past that";
    refused(fsm.run("start", "door", "--context", "@/dev/zero"), 1,
        "fsm: --context @/dev/zero: " + limit);
    Files.write(dir.resolve("huge.json"), new byte[5 << 20]);
    refused(fsm.run("start", "door", "--context", "@huge.json"), 1,
        "fsm: --context @huge.json: " + limit);
    fsm.ok("start", "door", "--id", "d1");
    refused(fsm.run("signal", "d1", "open", "--context", "@/dev/zero"), 1,
        "fsm: --context @/dev/zero: " + limit);
    FsmJar.Result endless = fsm.run("start", "door", "--from", "/dev/zero");
    assertThat(endless.exit()).isEqualTo(1);
    assertThat(endless.err()).isEqualTo("/dev/zero:1: the line is longer than 4 MiB; a task's"
        + " context may hold at most 1 MiB\nfsm: 1 bad line in /dev/zero; no task was started."
        + " Fix it and run the command again\n");
  }

  @Test
  void farFutureTimesAreAUsageErrorForOptionsAndAFileLineErrorInTaskFiles() throws Exception {
    doorMachine();
    StoreCommands fsm = new StoreCommands(dir, "store");
    FsmJar.Result at = fsm.run("start", "door", "--at", FAR);
    assertThat(at.exit()).isEqualTo(2);
    assertThat(at.err()).startsWith("fsm: Invalid value for option '--at': " + RANGE + "\n");
    fsm.ok("start", "door", "--id", "d1");
    FsmJar.Result until = fsm.run("send", "d1", "sleep", "--until", FAR);
    assertThat(until.exit()).isEqualTo(2);
    assertThat(until.err()).startsWith("fsm: Invalid value for option '--until': " + RANGE);
    Files.writeString(dir.resolve("far.jsonl"), "{}\n{\"at\": \"" + FAR + "\"}\n");
    FsmJar.Result line = fsm.run("start", "door", "--from", "far.jsonl");
    assertThat(line.exit()).isEqualTo(1);
    assertThat(line.err()).startsWith("far.jsonl:2: " + RANGE + "\n");
    // The refused sleep left the task as it was.
    JsonNode untouched = fsm.json("show", "d1");
    assertThat(untouched.get("status").asText()).isEqualTo("waiting");
    assertThat(untouched.get("due").isNull()).isTrue();
  }

  @Test
  void aFileOfLinesWithLargeLegalContextsStartsWholeLocallyAndThroughARunner()
      throws Exception {
    doorMachine();
    StoreCommands fsm = new StoreCommands(dir, "store");
    String blob = "x".repeat(800_000);
    StringBuilder lines = new StringBuilder();
    for (int i = 1; i <= 3; i++) {
      lines.append("{\"id\": \"big").append(i).append("\", \"context\": {\"blob\": \"")
          .append(blob).append("\"}}\n");
    }
    Files.writeString(dir.resolve("big.jsonl"), lines);
    assertThat(fsm.ok("start", "door", "--from", "big.jsonl").out())
        .isEqualTo("big1\nbig2\nbig3\n");
    Files.writeString(dir.resolve("big2.jsonl"), lines.toString().replace("\"big", "\"next"));
    FsmProcess runner = FsmProcess.start(dir, "run", "--store", "store");
    background.add(runner);
    runner.awaitServing();
    assertThat(fsm.ok("start", "door", "--from", "big2.jsonl").out())
        .isEqualTo("next1\nnext2\nnext3\n");
    assertThat(fsm.json("show", "next3").get("context").get("blob").asText()).isEqualTo(blob);
  }

  @Test
  void aCutOffResultLineIsAnErrorNamingTheLineNotSuccess() throws Exception {
    Path scripts = Files.createDirectories(dir.resolve("machines/scripts"));
    Files.writeString(dir.resolve("machines/pay.yaml"), """
        machine: pay
        states:
          charge:
            run: scripts/charge.sh
            retry: {max_errors: 1, window: 1h, backoff: 1s}
            on: {ok: shipped, declined: refunded}
          shipped: {final: completed}
          refunded: {final: failed}
        """);
    Path script = scripts.resolve("charge.sh");
    Files.writeString(script, """
        #!/bin/sh
        cat >/dev/null
        echo 'charging'
        printf '{"event": "declined", \\n'
        exit 0
        """);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    StoreCommands fsm = new StoreCommands(dir, "store");
    fsm.ok("start", "pay", "--id", "p1");
    fsm.ok("run", "--until-idle");
    JsonNode task = fsm.json("show", "p1");
    assertThat(task.get("state").asText()).isEqualTo("charge");
    assertThat(task.get("status").asText()).isEqualTo("failed");
    assertThat(task.get("errors").get(0).get("message").asText()).isEqualTo("the last stdout"
        + " line `{\"event\": \"declined\",` starts like a result but is not valid JSON at"
        + " column 22: Unexpected end-of-input within/between Object entries; expected"
        + " {\"event\": \"...\", \"context\": {...}}, {\"sleep\": \"10m\"} or {\"error\":"
        + " \"...\"}");
  }

  @Test
  void anActionThatForksAndExitsIsRecordedAtOnceAndLeavesNothingRunning() throws Exception {
    Path scripts = Files.createDirectories(dir.resolve("machines/scripts"));
    Files.writeString(dir.resolve("machines/fork.yaml"), """
        machine: fork
        states:
          go:
            run: scripts/fork.sh
            on: {ok: done}
          done: {final: completed}
        """);
    Path script = scripts.resolve("fork.sh");
    // A child holding stdout, one that ignores SIGTERM, and an orphan in a session of its own
    // (double fork and setsid) holding stdout too.
    Files.writeString(script, """
        #!/bin/sh
        cat >/dev/null
        sleep 300 & echo $! > child.pid
        sh -c 'trap "" TERM; echo $$ > stubborn.pid; while :; do sleep 1; done' &
        (setsid sh -c 'echo $$ > escaped.pid; exec sleep 300' &)
        while [ ! -s escaped.pid ] || [ ! -s stubborn.pid ]; do sleep 0.01; done
        echo '{"event": "ok"}'
        """);
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    StoreCommands fsm = new StoreCommands(dir, "store");
    fsm.ok("start", "fork", "--id", "f1");
    fsm.ok("run", "--until-idle", "--grace", "1s");
    JsonNode task = fsm.json("show", "f1");
    assertThat(task.get("status").asText()).isEqualTo("completed");
    // The program's own time plus the grace the stubborn child waits out, not 300 s.
    assertThat(task.get("history").get(0).get("duration_ms").asLong()).isLessThan(5_000);
    List<Long> pids = new ArrayList<>();
    for (String pidFile : List.of("child.pid", "stubborn.pid", "escaped.pid")) {
      pids.add(Long.parseLong(Files.readString(dir.resolve("machines/" + pidFile)).strip()));
    }
    try {
      assertThat(pids).noneMatch(HostileInputIT::running);
    } finally {
      // Should the assertion fail, the test ends what it started.
      pids.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }
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

  private void doorMachine() throws IOException {
    Files.createDirectories(dir.resolve("machines"));
    Files.writeString(dir.resolve("machines/door.yaml"), """
        machine: door
        states:
          closed:
            on: {open: opened}
          opened: {final: completed}
        """);
  }

  private static void refused(FsmJar.Result r, int exit, String message) {
    assertThat(r.exit()).as(r.err()).isEqualTo(exit);
    assertThat(r.err()).isEqualTo(message + "\n");
    assertThat(r.out()).isEmpty();
  }
}

package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The manners users of kubectl, gh and git expect, through the jar: examples in help, `fsm
 * version`, did-you-mean for verbs, `fsm init`, `ls -q` and ages, progress for `start --from`.
 */
class MannersIT {

  private static final String APPROVAL = """
      machine: approval
      states:
        review:
          on: {approve: done}
        done: {final: completed}
      """;

  @TempDir Path dir;

  @Test
  void verbHelpShowsExamplesAndPointsAtTheGlobalOptions() {
    FsmJar.Result ls = FsmJar.run(dir, "ls", "--help");
    assertThat(ls.exit()).isZero();
    assertThat(ls.out()).contains("Examples:\n  fsm ls ").contains("  -q, --quiet")
        .contains("Global options --store, --machines, --output, --no-color, -v, -h, -V work"
            + " with\nevery verb: see `fsm --help`.")
        .doesNotContain("Where tasks are stored").doesNotContain("[--no-color]");
    FsmJar.Result root = FsmJar.run(dir, "--help");
    assertThat(root.out()).contains("Where tasks are stored").contains("Environment:")
        .contains("FSM_STORE").contains("FSM_JAVA").contains("Exit status: 0 success");
  }

  @Test
  void versionSaysWhichJavaAndWhy() throws IOException {
    FsmJar.Result text = FsmJar.run(dir, "version");
    assertThat(text.exit()).isZero();
    assertThat(text.outLines().get(0)).matches("fsm \\S+ \\(built [-0-9T:]+Z\\)");
    assertThat(text.outLines().get(1)).isEqualTo("Java " + System.getProperty("java.version")
        + " (" + System.getProperty("java.vendor") + ") in " + System.getProperty("java.home"));
    assertThat(text.outLines().get(2)).isEqualTo("  run directly with java, not through"
        + " bin/fsm");
    JsonNode json = new ObjectMapper().readTree(FsmJar.run(dir, "version", "--output", "json")
        .out());
    assertThat(json.get("java").get("home").asText()).isEqualTo(System.getProperty("java.home"));
    assertThat(json.get("java").get("chosen").asText()).isEqualTo("direct");
    assertThat(json.get("version").asText()).isEqualTo(text.outLines().get(0).split(" ")[1]);
  }

  @Test
  void aMisspeltVerbGetsTheNearestOne() throws IOException {
    FsmJar.Result sned = FsmJar.run(dir, "sned", "t1", "pause");
    assertThat(sned.exit()).isEqualTo(2);
    assertThat(sned.err()).isEqualTo("fsm: unknown verb `sned`; did you mean `send`?\n"
        + "Try `fsm --help` for the verbs.\n");
    assertThat(FsmJar.run(dir, "store", "chekc").err()).startsWith("fsm: unknown verb `chekc`"
        + " of `store`; did you mean `check`?\n");
    assertThat(FsmJar.run(dir, "xyzzy").err()).isEqualTo("fsm: unknown verb `xyzzy`\n"
        + "Try `fsm --help` for the verbs.\n");
    assertThat(FsmJar.run(dir, "help", "hsitory").err()).isEqualTo("fsm: unknown verb"
        + " `hsitory`; did you mean `history`?\nTry `fsm --help` for the verbs.\n");
    FsmJar.Result shell = shell("sned t1 pause\nls --bogus\n");
    assertThat(shell.exit()).isEqualTo(2);
    assertThat(shell.err()).isEqualTo("fsm: unknown verb `sned`; did you mean `send`?\n"
        + "Type `help` for the verbs.\n"
        + "fsm: Unknown option: '--bogus'\n"
        + "Type `help ls` for usage.\n");
  }

  @Test
  void theShellsHelpIsAboutTheShell() throws IOException {
    FsmJar.Result r = shell("help\nhelp ls\n");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("Type a verb and its options without `fsm` in front")
        .contains("Verbs:\n  init ").contains("\n  ls ").contains("exit, quit")
        .contains("Usage: fsm ls").contains("Examples:")
        .contains("Options every verb takes").contains("--store=PATH|URL")
        .contains("work with\nevery verb: see `help`.").doesNotContain("fsm --help");
    assertThat(r.out().substring(0, r.out().indexOf("Usage:"))).doesNotContain("fsm ls")
        .doesNotContain("\n  shell ");
  }

  @Test
  void initMakesAMachineThatValidatesStartsAndRuns() throws IOException {
    FsmJar.Result init = FsmJar.run(dir, "init");
    assertThat(init.exit()).isZero();
    assertThat(init.out()).isEqualTo("""
        created machines/hello.yaml (a machine to start from) and machines/scripts/greet.sh\
         (the program its first state runs)
        next:
          fsm validate
          fsm start hello --context '{"name": "Ada"}'
          fsm run --until-idle
        """);
    assertThat(Files.isExecutable(dir.resolve("machines/scripts/greet.sh"))).isTrue();
    assertThat(FsmJar.run(dir, "validate").err()).isEqualTo("1 file: 0 errors, 0 warnings\n");
    String id = FsmJar.run(dir, "start", "hello", "--context", "{\"name\": \"Ada\"}").out()
        .strip();
    String nameless = FsmJar.run(dir, "start", "hello").out().strip();
    FsmJar.Result run = FsmJar.run(dir, "run", "--until-idle");
    assertThat(run.exit()).as(run.err()).isZero();
    JsonNode done = new ObjectMapper().readTree(FsmJar.run(dir, "show", id, "--output", "json")
        .out());
    assertThat(done.get("status").asText()).isEqualTo("completed");
    assertThat(done.get("context").get("greeting").asText()).isEqualTo("Hello, Ada!");
    assertThat(FsmJar.run(dir, "ls", "-q", "--status", "failed").out()).isEqualTo(nameless
        + "\n");

    FsmJar.Result again = FsmJar.run(dir, "init");
    assertThat(again.exit()).isEqualTo(1);
    assertThat(again.err()).isEqualTo("fsm: machines/hello.yaml already exists; fsm init never"
        + " overwrites a file, so it wrote nothing: move the file away, or give another folder:"
        + " fsm init DIR\n");
    FsmJar.Result elsewhere = FsmJar.run(dir, "init", "my machines");
    assertThat(elsewhere.out()).contains("  fsm validate --machines 'my machines'\n");
    assertThat(FsmJar.run(dir, "validate", "--machines", "my machines").exit()).isZero();
  }

  @Test
  void lsQuietPrintsIdsAloneHonouringFiltersAndLimit() throws IOException {
    approvalTasks("a1", "a2", "a3");
    assertThat(FsmJar.run(dir, "ls", "-q").out()).isEqualTo("a1\na2\na3\n");
    FsmJar.Result limited = FsmJar.run(dir, "ls", "--quiet", "--limit", "2", "--reverse");
    assertThat(limited.out()).isEqualTo("a3\na2\n");
    assertThat(limited.err()).startsWith("showing 2 of 3 matching tasks");
    assertThat(FsmJar.run(dir, "ls", "-q", "--status", "completed").out()).isEmpty();
    FsmJar.Result json = FsmJar.run(dir, "ls", "-q", "--output", "json");
    assertThat(json.exit()).isEqualTo(2);
    assertThat(json.err()).startsWith("fsm: -q prints ids only and --output json whole tasks");
  }

  @Test
  void lsShowsAgesOnATerminalAndTimesInAPipe() throws IOException {
    assumeTrue(Pty.available(), "util-linux script makes the terminal");
    approvalTasks("a1");
    FsmJar.Result terminal = Pty.run(dir, 100, "ls");
    assertThat(terminal.exit()).isZero();
    assertThat(terminal.out()).containsPattern("a1 +approval +review +waiting +0 +\\d+s ago\n");
    assertThat(FsmJar.run(dir, "ls").out()).containsPattern(
        "a1 +approval +review +waiting +0 +\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\n");
  }

  @Test
  void tablesOnATerminalFitItsWidthCountingWideCharacters() throws IOException {
    assumeTrue(Pty.available(), "util-linux script makes the terminal");
    approvalTasks("a1");
    String reason = "支払いの確認待ちです、明日もう一度確認してから承認します";
    assertThat(FsmJar.run(dir, "send", "a1", "pause", "--reason", reason).exit()).isZero();
    FsmJar.Result history = Pty.run(dir, 80, "history", "a1");
    assertThat(history.exit()).isZero();
    List<String> lines = history.out().lines().filter(l -> !l.isBlank()).toList();
    assertThat(lines.get(1)).contains("支払いの確認").endsWith("…");
    // Each wide character takes two columns: a line fits 80 columns, not 80 characters.
    assertThat(lines).allSatisfy(l -> assertThat(columns(l)).isLessThanOrEqualTo(80));
    assertThat(columns(lines.get(1))).isGreaterThan(74);
  }

  @Test
  void startFromAFileOnATerminalShowsASummaryNotEveryId() throws IOException {
    assumeTrue(Pty.available(), "util-linux script makes the terminal");
    Files.createDirectories(dir.resolve("machines"));
    Files.writeString(dir.resolve("machines/approval.yaml"), APPROVAL);
    Files.writeString(dir.resolve("tasks.jsonl"), IntStream.range(0, 1500)
        .mapToObj(i -> "{\"id\": \"t" + i + "\"}\n").collect(Collectors.joining()));
    FsmJar.Result terminal = Pty.run(dir, 100, "start", "approval", "--from", "tasks.jsonl");
    assertThat(terminal.exit()).isZero();
    assertThat(terminal.out()).containsPattern(
        "started 1,500 tasks of approval from tasks.jsonl in \\d+\\.\\d s\n$")
        .doesNotContain("t1499");
    Files.writeString(dir.resolve("more.jsonl"), "{\"id\": \"m1\"}\n{\"id\": \"m2\"}\n");
    assertThat(Pty.run(dir, 100, "start", "approval", "--from", "more.jsonl", "--print-ids")
        .out()).startsWith("m1\nm2\n").contains("started 2 tasks of approval from more.jsonl in ");
  }

  @Test
  void readVerbsOnAStoreThatDoesNotExistSaySoAndCreateNothing() throws IOException {
    approvalTasks();
    List<List<String>> verbs = List.of(List.of("ls"), List.of("show", "a1"),
        List.of("history", "a1"), List.of("stats"), List.of("machines"), List.of("runners"),
        List.of("watch", "--count", "1"), List.of("tail"), List.of("send", "a1", "pause"),
        List.of("send", "--machine", "approval", "pause"), List.of("signal", "a1", "approve"),
        List.of("purge", "--older-than", "1d"), List.of("store", "check"),
        List.of("store", "export"), List.of("render", "approval", "--task", "a1"));
    for (List<String> verb : verbs) {
      List<String> args = new java.util.ArrayList<>(List.of("--store", "nosuch"));
      args.addAll(verb);
      FsmJar.Result r = FsmJar.run(dir, args.toArray(String[]::new));
      assertThat(r.exit()).as("fsm %s: %s", verb, r.err()).isEqualTo(1);
      assertThat(r.err()).as("fsm %s", verb).containsPattern("^fsm: no (fsm )?store (at|folder)"
          + " nosuch; ");
      assertThat(dir.resolve("nosuch")).as("fsm %s", verb).doesNotExist();
    }
  }

  private void approvalTasks(String... ids) throws IOException {
    Files.createDirectories(dir.resolve("machines"));
    Files.writeString(dir.resolve("machines/approval.yaml"), APPROVAL);
    for (String id : ids) {
      assertThat(FsmJar.run(dir, "start", "approval", "--id", id).exit()).isZero();
    }
  }

  /** Screen columns of a line: two for a wide character, as the terminal drew it. */
  private static int columns(String line) {
    return line.codePoints().map(c -> Character.UnicodeScript.of(c) == Character.UnicodeScript.HAN
        || Character.UnicodeScript.of(c) == Character.UnicodeScript.HIRAGANA
        || (c >= 0x3000 && c <= 0x303f) ? 2 : 1).sum();
  }

  private FsmJar.Result shell(String input) throws IOException {
    Path in = dir.resolve("input.txt");
    Files.writeString(in, input);
    return FsmJar.run(dir, java.util.Map.of(), in, "shell");
  }
}

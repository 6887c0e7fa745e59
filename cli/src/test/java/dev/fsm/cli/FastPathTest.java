package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fast path either declines a command line or prints exactly what picocli's route prints. */
class FastPathTest {

  @TempDir Path dir;
  private String good;
  private String bad;

  @BeforeEach
  void machines() throws Exception {
    good = Files.writeString(dir.resolve("good.yaml"), "machine: good\nstates:\n"
        + "  a: {run: builtin:noop, on: {ok: b}}\n  b: {final: completed}\n").toString();
    bad = Files.writeString(dir.resolve("bad.yaml"), "machine: bad\ninitial: nope\nstates:\n"
        + "  a: {final: done}\n").toString();
  }

  record Run(int exit, String out, String err) {}

  @Test
  void handlesCommonValidateLinesExactlyLikePicocli() {
    String folder = dir.toString();
    List<String[]> lines = List.of(
        new String[] {"validate", good},
        new String[] {"validate", bad, good},
        new String[] {"validate", "--output", "json", bad},
        new String[] {"validate", "--output=json", good},
        new String[] {"--output", "text", "validate", good},
        new String[] {"validate", "-v", good, bad},
        new String[] {"--verbose", "validate", "--no-color", good},
        new String[] {"validate", "--machines", folder},
        new String[] {"--machines=" + folder, "validate"},
        new String[] {"--store", "x", "validate", good},
        new String[] {"validate", dir.resolve("missing.yaml").toString()},
        new String[] {"validate"});
    for (String[] line : lines) {
      Run fast = fast(line).orElseThrow(() -> new AssertionError("declined " + List.of(line)));
      assertThat(fast).as(String.join(" ", line)).isEqualTo(picocli(line));
    }
  }

  @Test
  void handlesCommonReadLinesExactlyLikePicocli() {
    String store = dir.resolve("store").toString();
    String[] at = {"--store", store, "--machines", dir.toString()};
    for (String id : List.of("t1", "t2", "u1")) {
      assertThat(picocli(concat(at, "start", "good", "--id", id)).exit()).isZero();
    }
    assertThat(picocli(concat(at, "send", "t2", "pause")).exit()).isZero();
    List<String[]> lines = List.of(
        new String[] {"show", "t1"},
        new String[] {"show", "u"},
        new String[] {"show", "t"},
        new String[] {"show", "none"},
        new String[] {"show", "t2", "--output", "json"},
        new String[] {"history", "t2"},
        new String[] {"history", "t"},
        new String[] {"history", "none"},
        new String[] {"history", "t2", "--output", "json"},
        new String[] {"ls"},
        new String[] {"ls", "--limit", "1"},
        new String[] {"ls", "--limit=2", "--reverse"},
        new String[] {"ls", "-q", "--sort", "id", "--reverse"},
        new String[] {"ls", "--quiet", "--sort=updated"},
        new String[] {"ls", "--status", "paused"},
        new String[] {"ls", "--status", "failed"},
        new String[] {"ls", "--machine", "good", "--state", "a", "--output", "json"},
        new String[] {"ls", "--machine", "nope"},
        new String[] {"ls", "--state", "nope"},
        new String[] {"stats"},
        new String[] {"stats", "good"},
        new String[] {"stats", "nope"},
        new String[] {"stats", "--output", "json"});
    for (String[] line : lines) {
      String[] full = concat(at, line);
      Run fast = fast(full).orElseThrow(() -> new AssertionError("declined " + List.of(line)));
      assertThat(fast).as(String.join(" ", line)).isEqualTo(picocli(full));
    }
    String empty = dir.resolve("empty").toString();
    for (String[] line : List.of(new String[] {"show", "t1"}, new String[] {"ls"})) {
      String[] full = concat(new String[] {"--store", empty}, line);
      assertThat(fast(full)).as("no store: " + String.join(" ", line))
          .contains(picocli(full));
    }
  }

  @Test
  void handlesCommonStartLinesExactlyLikePicocli() throws Exception {
    Path context = Files.writeString(dir.resolve("ctx.json"), "{\"order\": 7}");
    String[] fastStore = {"--store", dir.resolve("fast").toString(), "--machines", dir.toString()};
    String[] fullStore = {"--store", dir.resolve("full").toString(), "--machines", dir.toString()};
    List<String[]> lines = List.of(
        new String[] {"start", "good", "--id", "s1"},
        new String[] {"start", "good", "--id", "s1"},
        new String[] {"start", "good", "--id=s2", "--context", "{\"a\": [1, \"x\"]}"},
        new String[] {"start", "--context", "{\"a\": 1", "good", "--id", "s3"},
        new String[] {"start", "--context", "[1]", "good"},
        new String[] {"start", "nope", "--id", "s4"},
        new String[] {"start", good, "--id", "s5"},
        new String[] {"start", bad, "--id", "s6"},
        new String[] {"start", "good", "--id", "s7", "--output", "json"},
        new String[] {"start", "good", "--id", "bad id"},
        new String[] {"start", "ls", "--id", "s8"},
        new String[] {"start", "start", "--id", "s9"},
        new String[] {"start", "good", "--id", "s11", "--at", "10m"},
        new String[] {"start", "good", "--id", "s12", "--at=2030-01-31T10:00"},
        new String[] {"start", "good", "--id", "s13", "--context", "@" + context},
        new String[] {"start", "good", "--id", "s14", "--context", "@" + dir.resolve("no.json")},
        new String[] {"start", "good", "--id", "s15", "--context", "@" + dir},
        new String[] {"start", "--id", "s10", "good", "--no-color"});
    for (String[] line : lines) {
      Run fast = fast(concat(fastStore, line))
          .orElseThrow(() -> new AssertionError("declined " + List.of(line)));
      assertThat(withoutTimes(fast)).as(String.join(" ", line))
          .isEqualTo(withoutTimes(picocli(concat(fullStore, line))));
    }
    Run generated = fast(concat(fastStore, "start", "good")).orElseThrow();
    assertThat(generated.exit()).isZero();
    assertThat(generated.out()).matches("[0-9A-Z]{26}\n");
  }

  @Test
  void handlesCommonSignalLinesExactlyLikePicocli() throws Exception {
    Files.writeString(dir.resolve("gate.yaml"), "machine: gate\nstates:\n"
        + "  waiting: {on: {go: done, again: waiting}}\n  done: {final: completed}\n");
    Path context = Files.writeString(dir.resolve("patch.json"), "{\"by\": \"ada\"}");
    List<String[]> lines = List.of(
        new String[] {"signal", "g1", "go"},
        new String[] {"signal", "g1", "go"},
        new String[] {"signal", "g2", "nope"},
        new String[] {"signal", "g2", "again", "--output", "json"},
        new String[] {"signal", "g3", "go", "--context", "{\"n\": 1}"},
        new String[] {"signal", "--context=[1]", "g3", "go"},
        new String[] {"signal", "g4", "go", "--context", "@" + context},
        new String[] {"signal", "g4", "go", "--context", "@" + dir.resolve("no.json")},
        new String[] {"signal", "g", "go"},
        new String[] {"signal", "none", "go"},
        new String[] {"signal", "s1", "ok"});
    List<Run> runs = onTwinStores(Map.of("gate", List.of("g1", "g2", "g3", "g4"),
        "good", List.of("s1")), true, lines);
    assertThat(runs.get(0).exit()).isZero();
    assertThat(runs.get(1).exit()).isNotZero();
  }

  @Test
  void sendsToAStoreNoRunnerServesExactlyLikePicocli() {
    List<String[]> lines = List.of(
        new String[] {"send", "t1", "pause"},
        new String[] {"send", "t1", "pause"},
        new String[] {"send", "t1", "resume", "--reason", "back to work"},
        new String[] {"send", "t2", "sleep", "--until", "2031-02-03T10:00"},
        new String[] {"send", "t2", "run", "--output", "json"},
        new String[] {"send", "t3", "kill"},
        new String[] {"send", "t3", "run"},
        new String[] {"send", "t", "pause"},
        new String[] {"send", "none", "pause"},
        new String[] {"--machines", "elsewhere", "send", "t2", "complete"});
    List<Run> runs = onTwinStores(Map.of("good", List.of("t1", "t2", "t3")), false, lines);
    assertThat(runs.get(0).exit()).isZero();
    assertThat(runs.get(8).exit()).isNotZero();
  }

  /**
   * Starts the same tasks (ids by machine) in a store for each route, runs each line through its
   * route against its store (after {@code --store}, and {@code --machines} when asked), checks
   * that both printed the same but for times, and gives the fast route's runs.
   */
  private List<Run> onTwinStores(Map<String, List<String>> tasks, boolean machinesFolder,
      List<String[]> lines) {
    List<Run> runs = new ArrayList<>();
    for (String kind : List.of("fast", "full")) {
      String[] store = {"--store", dir.resolve(kind).toString()};
      String[] at = concat(store, "--machines", dir.toString());
      tasks.forEach((machine, ids) -> ids.forEach(id ->
          assertThat(picocli(concat(at, "start", machine, "--id", id)).exit()).isZero()));
      for (String[] line : lines) {
        String[] full = concat(machinesFolder ? at : store, line);
        runs.add(kind.equals("full") ? picocli(full) : fast(full)
            .orElseThrow(() -> new AssertionError("declined " + List.of(line))));
      }
    }
    for (int i = 0; i < lines.size(); i++) {
      assertThat(withoutTimes(runs.get(i))).as(String.join(" ", lines.get(i)))
          .isEqualTo(withoutTimes(runs.get(lines.size() + i)));
    }
    return runs.subList(0, lines.size());
  }

  @Test
  void declinesSignalLinesPicocliReadsOrRefusesItself() {
    List<String[]> lines = List.of(
        new String[] {"signal"},
        new String[] {"signal", "a"},
        new String[] {"signal", "a", "b", "c"},
        new String[] {"signal", "a", "send"},
        new String[] {"signal", "a", "b", "--context", ""},
        new String[] {"signal", "a", "b", "--context", "@"},
        new String[] {"signal", "a", "b", "--context", "{}", "--context", "{}"},
        new String[] {"signal", "a", "b", "--help"});
    for (String[] line : lines) {
      assertThat(fast(line)).as(String.join(" ", line)).isEmpty();
    }
  }

  @Test
  void declinesStartLinesPicocliReadsOrRefusesItself() {
    List<String[]> lines = List.of(
        new String[] {"start"},
        new String[] {"start", "a", "b"},
        new String[] {"start", "good", "--at", "soon"},
        new String[] {"start", "good", "--at", "-5m"},
        new String[] {"start", "good", "--at", "99999-01-01"},
        new String[] {"start", "good", "--from", "tasks.jsonl"},
        new String[] {"start", "good", "--context", "@"},
        new String[] {"start", "good", "--context", ""},
        new String[] {"start", "good", "--print-ids"},
        new String[] {"start", "good", "--id", "a", "--id", "b"},
        new String[] {"start", "good", "--help"});
    for (String[] line : lines) {
      assertThat(fast(line)).as(String.join(" ", line)).isEmpty();
    }
  }

  /** A run with its timestamps masked: two runs never start a task in the same millisecond. */
  private static Run withoutTimes(Run run) {
    String time = "\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z";
    return new Run(run.exit(), run.out().replaceAll(time, "TIME"),
        run.err().replaceAll(time, "TIME"));
  }

  @Test
  void declinesReadLinesPicocliReadsOrRefusesItself() {
    List<String[]> lines = List.of(
        new String[] {"show"},
        new String[] {"show", "a", "b"},
        new String[] {"show", "--help"},
        new String[] {"history"},
        new String[] {"history", "a", "b"},
        new String[] {"history", "a", "--limit", "1"},
        new String[] {"stats", "a", "b"},
        new String[] {"ls", "extra"},
        new String[] {"ls", "--limit", "0"},
        new String[] {"ls", "--limit", "+5"},
        new String[] {"ls", "--limit", "9999999999"},
        new String[] {"ls", "--limit", "ten"},
        new String[] {"ls", "--status", "bogus"},
        new String[] {"ls", "--status", "paused", "--status", "fault"},
        new String[] {"ls", "--sort", "age"},
        new String[] {"ls", "-q", "--output", "json"},
        new String[] {"ls", "-q", "--quiet"},
        new String[] {"ls", "--reverse=true"},
        new String[] {"ls", "-qr"});
    for (String[] line : lines) {
      assertThat(fast(line)).as(String.join(" ", line)).isEmpty();
    }
  }

  private static String[] concat(String[] first, String... then) {
    List<String> all = new ArrayList<>(List.of(first));
    all.addAll(List.of(then));
    return all.toArray(String[]::new);
  }

  @Test
  void declinesAnythingUnusual() {
    List<String[]> lines = List.of(
        new String[] {},
        new String[] {"--help"},
        new String[] {"validate", "--help"},
        new String[] {"validate", "-h"},
        new String[] {"-V"},
        new String[] {"--version"},
        new String[] {"help", "validate"},
        new String[] {"validte", good},
        new String[] {"validate", "--bogus"},
        new String[] {"validate", "--output", "xml", good},
        new String[] {"validate", "--output"},
        new String[] {"validate", "--machines", "a", "--machines", "b"},
        new String[] {"validate", "--no-color=true"},
        new String[] {"validate", "@args.txt"},
        new String[] {"validate", "--", good},
        new String[] {"validate", "-vh"},
        new String[] {"validate", "validate"});
    for (String[] line : lines) {
      assertThat(fast(line)).as(String.join(" ", line)).isEmpty();
    }
  }

  private static Map<String, String> env() {
    return Map.of("NO_COLOR", "1");
  }

  private static java.util.Optional<Run> fast(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    OptionalInt exit = FastPath.tryRun(args, env(), new PrintWriter(out, true),
        new PrintWriter(err, true));
    if (exit.isEmpty()) {
      assertThat(out.toString() + err).isEmpty();
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(new Run(exit.getAsInt(), out.toString(), err.toString()));
  }

  private static Run picocli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int exit = Fsm.run(new PrintWriter(out, true), new PrintWriter(err, true), env(),
        new ArrayList<>(List.of(args)).toArray(String[]::new));
    return new Run(exit, out.toString(), err.toString());
  }
}

package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fat jar's command-line frame, run as a separate process. */
class CliIT {

  @TempDir Path dir;

  @Test
  void versionWorksFromAnyFolder() {
    FsmJar.Result r = FsmJar.run(dir, "--version");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("fsm 0.");
    assertThat(r.err()).isEmpty();
  }

  @Test
  void bareFsmIsAUsageError() {
    FsmJar.Result r = FsmJar.run(dir);
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("fsm: a verb is required").contains("fsm --help");
    assertThat(r.out()).isEmpty();
  }

  @Test
  void misspeltVerbGetsASuggestion() {
    FsmJar.Result r = FsmJar.run(dir, "validte");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).isEqualTo("fsm: unknown verb `validte`; did you mean `validate`?\n"
        + "Try `fsm --help` for the verbs.\n");
  }

  @Test
  void badOptionValueIsAUsageError() {
    FsmJar.Result r = FsmJar.run(dir, "--output", "xml", "validate");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("--output").contains("text, json");
  }

  @Test
  void helpListsOnlyWorkingVerbs() {
    FsmJar.Result r = FsmJar.run(dir, "--help");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("validate").contains("--machines").contains("--output")
        .contains("--no-color").contains("--store").contains("Exit status");
  }

  @Test
  void validatesTheExampleMachinesByDefault() {
    FsmJar.Result r = FsmJar.run(FsmJar.repo(), "validate");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).contains("3 files: 0 errors, 0 warnings");
  }

  @Test
  void globalOptionsWorkBeforeAndAfterTheVerb() {
    String machines = FsmJar.repo().resolve("machines").toString();
    assertThat(FsmJar.run(dir, "--machines", machines, "validate").exit()).isZero();
    assertThat(FsmJar.run(dir, "validate", "--machines", machines).exit()).isZero();
    assertThat(FsmJar.run(dir, Map.of("FSM_MACHINES", machines), "validate").exit()).isZero();
  }

  @Test
  void missingMachinesFolderIsAClearError() {
    FsmJar.Result r = FsmJar.run(dir, "validate");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("fsm: no machines folder machines here; name machine files or"
        + " folders (fsm validate order.yaml), or choose the folder with --machines DIR or"
        + " $FSM_MACHINES\n");
  }

  @Test
  void reportsEveryProblemSortedWithPositions() throws Exception {
    Files.writeString(dir.resolve("bad.yaml"), """
        machine: order
        states:
          pay:
            run: builtin:noop
            on: {ok: shpi}
          ship:
            run: builtin:noop
            retires: 3
            on: {ok: done}
          done: {final: complete}
        """);
    FsmJar.Result r = FsmJar.run(dir, "validate", "bad.yaml");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.outLines()).containsExactly(
        "bad.yaml:5:14: error: event `ok` of state `pay` leads to unknown state `shpi`"
            + " (did you mean `ship`?)",
        "bad.yaml:8:5: error: unknown key `retires` in state `ship` (allowed keys: description,"
            + " run, wait, on, timeout, retry, final, concurrency)",
        "bad.yaml:10:17: error: `final` in state `done` must be `completed` or `failed`, found"
            + " `complete` (did you mean `completed`?)");
    assertThat(r.err()).isEqualTo("1 file: 3 errors, 0 warnings\n");
  }

  @Test
  void warningsAlonePass() throws Exception {
    Files.writeString(dir.resolve("loop.yaml"), """
        machine: loop
        states:
          a: {run: builtin:noop, on: {ok: b}}
          b: {wait: 1s, on: {ok: a}}
        """);
    FsmJar.Result r = FsmJar.run(dir, "validate", "loop.yaml");
    assertThat(r.exit()).isZero();
    assertThat(r.out()).contains("loop.yaml:2:1: warning: machine `loop` has no final state");
  }

  @Test
  void jsonOutputIsOneDocumentWithStableKeys() throws Exception {
    Files.writeString(dir.resolve("bad.yaml"), "machine: x\ninitial: nope\nstates:\n"
        + "  a: {final: completed}\n");
    FsmJar.Result r = FsmJar.run(dir, "validate", "--output", "json", "bad.yaml");
    assertThat(r.exit()).isEqualTo(1);
    JsonNode doc = new ObjectMapper().readTree(r.out());
    assertThat(doc.get("valid").asBoolean()).isFalse();
    assertThat(doc.get("errors").asInt()).isEqualTo(1);
    assertThat(doc.get("warnings").asInt()).isZero();
    assertThat(doc.get("files").get(0).get("file").asText()).isEqualTo("bad.yaml");
    JsonNode d = doc.get("diagnostics").get(0);
    assertThat(d.get("file").asText()).isEqualTo("bad.yaml");
    assertThat(d.get("line").asInt()).isEqualTo(2);
    assertThat(d.get("column").asInt()).isEqualTo(10);
    assertThat(d.get("severity").asText()).isEqualTo("error");
    assertThat(d.get("message").asText()).isEqualTo("initial state `nope` is not a state of this"
        + " machine");
    assertThat(d.get("hint").asText()).isEqualTo("states: a");
  }

  @Test
  void noColourWhenNotATerminal() throws Exception {
    Files.writeString(dir.resolve("bad.yaml"), "machine: x\nstates: []\n");
    FsmJar.Result r = FsmJar.run(dir, "validate", "bad.yaml");
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.out() + r.err()).doesNotContain("\u001b[");
  }
}

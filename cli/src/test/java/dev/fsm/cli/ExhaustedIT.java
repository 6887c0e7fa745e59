package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code exhausted} edge through the real jar: a failing action is retried by its policy,
 * then the task moves on instead of failing; {@code validate} warns about edges that cannot fire.
 */
class ExhaustedIT {

  private static final String REFUND = """
      machine: refund
      states:
        refund:
          run: scripts/refund.sh
          retry: {max_errors: 3, window: 1h, backoff: 0s}
          on: {ok: cancelled, exhausted: manual_review}
        manual_review:
          on: {done: cancelled}
        cancelled: {final: failed}
      """;

  /** Fails every time, and counts its runs in a file beside it. */
  private static final String FAILING = """
      #!/bin/sh
      cat >/dev/null
      echo "$FSM_ATTEMPT" >> runs.txt
      echo "bank down" >&2
      exit 3
      """;

  @TempDir Path dir;

  @Test
  void aFailingActionIsRetriedThenTakesTheExhaustedEdgeAfterExactlyMaxErrors() throws IOException {
    write("machines/refund.yaml", REFUND);
    write("machines/scripts/refund.sh", FAILING);
    Files.setPosixFilePermissions(dir.resolve("machines/scripts/refund.sh"),
        PosixFilePermissions.fromString("rwxr-xr-x"));
    FsmJar.Result valid = FsmJar.run(dir, "validate");
    assertThat(valid.exit()).isZero();
    assertThat(valid.out()).isEmpty();

    String id = ok("start", "refund").out().strip();
    FsmJar.Result run = ok("run", "--until-idle");
    assertThat(run.err()).contains("fsm run: done: 0 transitions, 3 errors");

    assertThat(Files.readAllLines(dir.resolve("machines/runs.txt")))
        .as("the action ran exactly max_errors times").containsExactly("1", "2", "3");
    List<JsonNode> seen = commands().jsonEach(List.of("show", id), List.of("history", id));
    JsonNode task = seen.get(0);
    assertThat(task.get("state").asText()).isEqualTo("manual_review");
    // manual_review waits for a signal, so it shows as waiting (runnable for the command table).
    assertThat(task.get("status").asText()).isEqualTo("waiting");
    assertThat(task.get("errors")).as("cleared as on any transition").isEmpty();

    List<String> rows = new ArrayList<>();
    for (JsonNode e : seen.get(1)) {
      rows.add(e.get("from").asText() + " " + e.get("event").asText() + " " + e.get("to").asText()
          + " #" + e.get("attempt").asInt() + ": " + e.get("reason").asText());
    }
    assertThat(rows).containsExactly(
        "refund error refund #1: bank down (exited with status 3); retry in 0s (1 of 3 errors in"
            + " 1h)",
        "refund error refund #2: bank down (exited with status 3); retry in 0s (2 of 3 errors in"
            + " 1h)",
        "refund exhausted manual_review #3: bank down (exited with status 3); exhausted, to"
            + " `manual_review`: 3 of 3 errors in 1h");
    assertThat(ok("history", id).out()).contains("refund  exhausted  manual_review");

    FsmJar.Result reserved = commands().run("signal", id, "exhausted");
    assertThat(reserved.exit()).isEqualTo(1);
    assertThat(reserved.err().strip()).isEqualTo("fsm: event `exhausted` is reserved: the retry"
        + " policy of a state that runs an action fires it when it gives up; signal another"
        + " event");
    List<JsonNode> signalled = commands().jsonEach(List.of("signal", id, "done"),
        List.of("show", id));
    assertThat(signalled.get(1).get("status").asText()).isEqualTo("failed");
  }

  @Test
  void validateWarnsAboutErrorEdgesThatCannotTakeEffectAndStillPasses() throws IOException {
    write("warn.yaml", """
        machine: warn
        states:
          refund:
            run: builtin:fail bank down
            retry: {max_errors: 3, backoff: 0s}
            on: {ok: done, error: review, exhausted: review}
          review:
            on: {done: done}
          done: {final: completed}
        """);
    FsmJar.Result r = FsmJar.run(dir, "validate", "warn.yaml");
    assertThat(r.exit()).as("warnings alone pass").isZero();
    assertThat(r.outLines()).containsExactly(
        "warn.yaml:5:5: warning: `retry` in state `refund` never applies: its `error` edge takes"
            + " every error at once (remove `retry`, or to retry first and then move on, rename"
            + " the edge `error` to `exhausted`)",
        "warn.yaml:6:46: warning: event `exhausted` of state `refund` can never fire: its"
            + " `error` edge takes every error before the retry policy could give up (remove one"
            + " of them: `error` moves on at the first error, `exhausted` once the retries are"
            + " used up)");
    assertThat(r.err()).contains("1 file: 0 errors, 2 warnings");
  }

  @Test
  void theExhaustedEdgeIsDrawnDottedRedWithAnOpenHead() throws IOException {
    write("machines/refund.yaml", REFUND);
    write("machines/scripts/refund.sh", FAILING);
    Files.setPosixFilePermissions(dir.resolve("machines/scripts/refund.sh"),
        PosixFilePermissions.fromString("rwxr-xr-x"));
    FsmJar.Result r = FsmJar.run(dir, "render", "refund", "--format", "dot", "-o", "refund.dot");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(Files.readString(dir.resolve("refund.dot"))).contains("[label=\"exhausted\","
        + " color=\"#c5221f\", penwidth=1, style=dotted, fontcolor=\"#c5221f\","
        + " arrowhead=empty];");
  }

  @Test
  void signalCompletionOffersTheStatesEventsButNotTheReservedExhausted() throws IOException {
    write("machines/review.yaml", """
        machine: review
        states:
          review:
            on: {approve: done, reject: done, exhausted: done}
          done: {final: completed}
        """);
    String id = ok("start", "review").out().strip();
    FsmJar.Result r = FsmJar.run(dir, "__complete", "--", "--store",
        dir.resolve("store").toString(), "signal", id, "");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.outLines()).containsExactly("approve", "reject");
  }

  private void write(String name, String text) throws IOException {
    Path file = dir.resolve(name);
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

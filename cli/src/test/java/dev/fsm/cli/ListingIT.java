package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The waiting status, ls order, sorting and repeated --status, on the real jar. */
class ListingIT {

  @TempDir Path dir;

  @BeforeEach
  void machines() throws IOException {
    Files.createDirectories(dir.resolve("machines"));
    // approve waits for a signal; work has an action, so a task there is runnable.
    Files.writeString(dir.resolve("machines/sign.yaml"), """
        machine: sign
        states:
          approve:
            on: {yes: work, no: rejected}
          work:
            run: builtin:noop
            on: {ok: done}
          done: {final: completed}
          rejected: {final: failed}
        """);
  }

  private StoreCommands store() {
    return new StoreCommands(dir, "store");
  }

  private List<String> ids(String out) {
    List<String> ids = new ArrayList<>();
    out.lines().skip(1).forEach(l -> ids.add(l.split("\\s+")[0]));
    return ids;
  }

  @Test
  void aTaskWaitingForASignalShowsAsWaitingEverywhere() throws IOException {
    store().ok("start", "sign", "--id", "w1");
    store().ok("start", "sign", "--id", "r1");
    assertThat(store().ok("signal", "r1", "yes").out()).isEqualTo("r1: approve --yes--> work,"
        + " runnable\n");

    assertThat(store().ok("ls").out()).containsPattern("w1 +sign +approve +waiting")
        .containsPattern("r1 +sign +work +runnable");
    assertThat(store().ok("show", "w1").out()).contains("status    waiting\n");
    assertThat(store().json("show", "w1").get("status").asText()).isEqualTo("waiting");
    JsonNode listed = store().json("ls");
    assertThat(listed.get(0).get("status").asText()).isEqualTo("waiting");
    assertThat(listed.get(1).get("status").asText()).isEqualTo("runnable");

    assertThat(store().ok("stats", "sign").out()).containsPattern("sign +approve +1 waiting")
        .containsPattern("sign +work +1 runnable");
    JsonNode stats = store().json("stats", "sign");
    assertThat(stats.get(0).get("state").asText()).isEqualTo("approve");
    assertThat(stats.get(0).get("counts").get("waiting").asInt()).isEqualTo(1);
    assertThat(stats.get(0).get("counts").get("runnable").asInt()).isZero();
    assertThat(store().ok("machines").out()).contains("1 runnable, 1 waiting");
    assertThat(store().json("machines").get(0).get("tasks").get("waiting").asInt())
        .isEqualTo(1);

    assertThat(ids(store().ok("ls", "--status", "waiting").out())).containsExactly("w1");
    assertThat(ids(store().ok("ls", "--status", "runnable").out())).containsExactly("r1");
    assertThat(ids(store().ok("ls", "--status", "runnable", "--status", "waiting").out()))
        .containsExactly("w1", "r1");

    // Commands still see it as runnable (pause is allowed), and it shows paused after; the
    // confirmation, like start's line and send's JSON, shows it as everything else does.
    assertThat(store().json("send", "r1", "sleep", "--until", "1h").get("status").asText())
        .isEqualTo("sleeping");
    assertThat(store().ok("send", "r1", "run").out()).isEqualTo("r1: run sent; sleeping ->"
        + " runnable\n");
    assertThat(store().ok("start", "sign", "--id", "w2").err()).endsWith(", waiting\n");
    assertThat(store().json("send", "w2", "checkpoint").get("status").asText())
        .isEqualTo("waiting");
    store().ok("send", "w2", "kill");
    assertThat(store().ok("send", "w1", "pause").out()).isEqualTo("w1: pause sent; waiting ->"
        + " paused\n");
    assertThat(ids(store().ok("ls", "--status", "paused", "--status", "runnable").out()))
        .containsExactly("w1", "r1");
    FsmJar.Result none = store().run("ls", "--status", "waiting");
    assertThat(none.exit()).isZero();
    assertThat(none.err()).isEqualTo("no tasks match\n");
  }

  @Test
  void bulkSendSelectsWaitingApartFromRunnable() {
    store().ok("start", "sign", "--id", "w1");
    store().ok("start", "sign", "--id", "w2");
    store().ok("start", "sign", "--id", "r1");
    store().ok("signal", "r1", "yes");

    FsmJar.Result sent = store().ok("send", "--machine", "sign", "--status", "waiting", "pause");
    assertThat(ids(store().ok("ls", "--status", "paused").out())).containsExactly("w1", "w2");
    assertThat(ids(store().ok("ls", "--status", "runnable").out())).containsExactly("r1");
    assertThat(sent.out() + sent.err()).contains("2");
  }

  @Test
  void lsListsOldestFirstByCreationSortsReversesAndCountsWhatTheLimitCut() throws IOException {
    // Given ids that sort against their creation order.
    List<List<String>> given = new ArrayList<>();
    for (String id : List.of("zulu", "alpha", "mike", "bravo")) {
      given.add(List.of("start", "sign", "--id", id));
    }
    given.add(List.of("signal", "alpha", "yes"));
    store().jsonEach(given);

    assertThat(ids(store().ok("ls").out())).containsExactly("zulu", "alpha", "mike", "bravo");
    assertThat(ids(store().ok("ls", "--reverse").out()))
        .containsExactly("bravo", "mike", "alpha", "zulu");
    assertThat(ids(store().ok("ls", "--sort", "id").out()))
        .containsExactly("alpha", "bravo", "mike", "zulu");
    assertThat(ids(store().ok("ls", "--sort", "id", "--reverse").out()))
        .containsExactly("zulu", "mike", "bravo", "alpha");
    assertThat(ids(store().ok("ls", "--sort", "updated", "--reverse").out()).get(0))
        .isEqualTo("alpha");

    FsmJar.Result cut = store().ok("ls", "--limit", "2");
    assertThat(ids(cut.out())).containsExactly("zulu", "alpha");
    assertThat(cut.err()).isEqualTo("showing 2 of 4 matching tasks; narrow with --machine,"
        + " --state or --status, or raise --limit\n");
    FsmJar.Result cutWaiting = store().ok("ls", "--status", "waiting", "--limit", "1");
    assertThat(ids(cutWaiting.out())).containsExactly("zulu");
    assertThat(cutWaiting.err()).startsWith("showing 1 of 3 matching tasks;");
    assertThat(store().ok("ls", "--limit", "4").err()).isEmpty();

    FsmJar.Result badSort = store().run("ls", "--sort", "age");
    assertThat(badSort.exit()).isEqualTo(2);
    assertThat(badSort.err()).startsWith("fsm: Invalid value for option '--sort':"
        + " unknown sort `age` (one of: created, updated, id)");
    FsmJar.Result badStatus = store().run("ls", "--status", "wating");
    assertThat(badStatus.exit()).isEqualTo(2);
    assertThat(badStatus.err()).contains("unknown status `wating`; did you mean `waiting`?");
  }

  @Test
  void anOperatorsCommandMovesATaskToTheLatestInUpdateOrderWithOrWithoutARunner()
      throws Exception {
    for (String id : List.of("old", "mid", "new")) {
      store().ok("start", "sign", "--id", id);
    }
    assertThat(store().ok("ls", "-q", "--sort", "updated", "--reverse").outLines())
        .containsExactly("new", "mid", "old");

    // No runner: the command opens the store, and the next one reads what it kept.
    store().ok("send", "old", "pause");
    assertThat(store().ok("ls", "-q", "--sort", "updated", "--reverse").outLines())
        .containsExactly("old", "new", "mid");
    JsonNode old = store().json("show", "old");
    assertThat(old.get("updated").asText()).isGreaterThan(old.get("state_entered").asText());
    assertThat(old.get("updated").asText())
        .isEqualTo(old.get("history").get(old.get("history").size() - 1).get("time").asText());

    // Through a runner's control socket.
    try (FsmProcess runner = FsmProcess.start(dir, "run", "--store", "store").awaitServing()) {
      store().ok("send", "mid", "kill");
      assertThat(store().ok("ls", "-q", "--sort", "updated", "--reverse").outLines())
          .containsExactly("mid", "old", "new");
    }
    assertThat(store().ok("ls", "-q", "--sort", "updated").outLines())
        .containsExactly("new", "old", "mid");
  }

  @Test
  void aHundredThousandTasksAreListedThroughARunnerWithA32MiBHeap() throws IOException {
    Files.writeString(dir.resolve("machines/hold.yaml"), """
        machine: hold
        states:
          wait:
            on: {go: done}
          done: {final: completed}
        """);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 100_000; i++) {
      lines.add(String.format("{\"id\":\"h%06d\"}", i));
    }
    Files.write(dir.resolve("tasks.jsonl"), lines);
    store().ok("start", "hold", "--from", "tasks.jsonl");

    // The whole list once had to fit in the runner's heap (128 MiB through bin/fsm); read a
    // page at a time, a heap a quarter of that serves it.
    try (FsmProcess runner = FsmProcess.start(dir, List.of("env", "JDK_JAVA_OPTIONS=-Xmx32m"),
        "run", "--store", "store").awaitServing()) {
      List<String> byCreation = store().ok("ls", "-q", "--limit", "1000000").outLines();
      assertThat(byCreation).hasSize(100_000).doesNotHaveDuplicates();
      assertThat(byCreation.get(99_999)).isEqualTo("h099999");
      List<String> byUpdate = store().ok("ls", "-q", "--sort", "updated", "--reverse",
          "--limit", "1000000").outLines();
      assertThat(byUpdate).hasSize(100_000).doesNotHaveDuplicates();
      assertThat(runner.alive()).as(runner.err()).isTrue();
      assertThat(runner.err()).doesNotContain("OutOfMemoryError");
    }
  }
}

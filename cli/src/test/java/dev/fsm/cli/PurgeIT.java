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
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fsm purge} and {@code retention:} on the real jar: with no runner and through a runner
 * that owns the store, dry runs and status filters, a runner's own retention, and a kill -9 in
 * the middle of a purge.
 */
class PurgeIT {

  private static final Duration BOUND = Duration.ofSeconds(60);
  private static final int FINISHED = 25_000;

  /** The folder holding the store {@link #finishedStore} copies, once made. */
  private static Path finished;

  @TempDir Path dir;

  private final List<FsmProcess> processes = new ArrayList<>();
  private StoreCommands fsm;

  @BeforeEach
  void machines() throws IOException {
    Files.createDirectories(dir.resolve("machines"));
    Files.writeString(dir.resolve("machines/order.yaml"), """
        machine: order
        states:
          pay:
            run: builtin:noop
            on: {ok: done}
          done: {final: completed}
        """);
    fsm = new StoreCommands(dir, "store");
  }

  @AfterEach
  void stopProcesses() {
    processes.forEach(FsmProcess::close);
  }

  private long count(String... filters) throws IOException {
    List<String> args = new ArrayList<>(List.of("ls", "--limit", "100000"));
    args.addAll(List.of(filters));
    return fsm.json(args.toArray(String[]::new)).size();
  }

  /** Three completed tasks, one killed and one left runnable. */
  private void finishedAndNot() throws IOException {
    fsm.jsonEach(verb("start", "order", "--id", "o1"), verb("start", "order", "--id", "o2"),
        verb("start", "order", "--id", "o3"));
    fsm.ok("run", "--until-idle");
    fsm.jsonEach(verb("start", "order", "--id", "k1"),
        verb("send", "k1", "kill", "--reason", "wrong customer"),
        verb("start", "order", "--id", "r1"));
  }

  @Test
  void withNoRunnerADryRunCountsAStatusFilterSelectsAndThePurgeDeletes() throws IOException {
    finishedAndNot();

    FsmJar.Result none = fsm.ok("purge", "--older-than", "1d");
    assertThat(none.out()).isEqualTo("purge: no completed, failed or killed tasks became"
        + " terminal more than 1d ago; nothing deleted\n");

    FsmJar.Result dry = fsm.ok("purge", "--older-than", "0s", "--dry-run");
    assertThat(dry.out()).startsWith("purge (dry run): 4 tasks would be deleted, terminal for"
        + " more than 0s; nothing was changed\n").containsPattern("order +completed +3\n")
        .containsPattern("order +killed +1\n");
    List<JsonNode> counted = fsm.jsonEach(verb("ls", "--limit", "100000"),
        verb("purge", "--older-than", "0s", "--dry-run"));
    assertThat(counted.get(0).size()).isEqualTo(5);
    JsonNode dryJson = counted.get(1);
    assertThat(dryJson.get("dry_run").asBoolean()).isTrue();
    assertThat(dryJson.get("purged").asLong()).isEqualTo(4);
    assertThat(dryJson.get("by_machine").toString()).isEqualTo("[{\"machine\":\"order\","
        + "\"status\":\"completed\",\"count\":3},{\"machine\":\"order\",\"status\":\"killed\","
        + "\"count\":1}]");

    FsmJar.Result killed = fsm.ok("purge", "--older-than", "0s", "--status", "killed");
    assertThat(killed.out()).startsWith("purged 1 task, terminal for more than 0s; the store"
        + " gives their space back at its next checkpoint\n");
    FsmJar.Result gone = fsm.run("show", "k1");
    assertThat(gone.exit()).isEqualTo(1);
    assertThat(gone.err()).contains("no task `k1`");

    List<JsonNode> purged = fsm.jsonEach(verb("ls", "--limit", "100000", "--status", "completed"),
        verb("purge", "--older-than", "0s", "--machine", "order"), verb("ls"),
        verb("ls", "--limit", "100000"));
    assertThat(purged.get(0).size()).isEqualTo(3);
    JsonNode all = purged.get(1);
    assertThat(all.get("purged").asLong()).isEqualTo(3);
    assertThat(all.get("batches").asInt()).isPositive();
    assertThat(purged.get(2).get(0).get("id").asText()).isEqualTo("r1");
    assertThat(purged.get(3).size()).isEqualTo(1);
    assertThat(fsm.run("history", "o1").exit()).isEqualTo(1);
    assertThat(fsm.ok("stats").out()).contains("1 runnable").doesNotContain("completed");
    assertThat(fsm.ok("machines").out()).containsPattern("order +v1 \\S+ \\(newest\\) +\\S+ \\S+ +1"
        + " runnable");
    assertThat(fsm.ok("store", "check").out()).contains("index matches the journal");

    // A purged id is free again, with a history of its own.
    fsm.ok("start", "order", "--id", "o1");
    fsm.ok("run", "--until-idle");
    assertThat(fsm.json("history", "o1").size()).isEqualTo(1);
    assertThat(fsm.ok("store", "rebuild").out()).contains("rebuilt");
    List<JsonNode> rebuilt = fsm.jsonEach(verb("history", "o1"), verb("ls", "--limit", "100000"));
    assertThat(rebuilt.get(0).size()).isEqualTo(1);
    assertThat(rebuilt.get(1).size()).isEqualTo(2);
  }

  /**
   * A store closed cleanly opens without reading its snapshot, so damage to it since showed only
   * after a crash, when the rebuild needed it and the index that still had everything was gone.
   */
  @Test
  void aSnapshotDamagedSinceTheCleanCloseIsFoundByCheckAndReplacedByTheNextRunner()
      throws IOException {
    finishedAndNot();
    fsm.ok("purge", "--older-than", "0s");
    Path snapshot = dir.resolve("store/snapshot");
    assertThat(snapshot).as("a purge of most tasks takes a checkpoint").exists();
    byte[] bytes = Files.readAllBytes(snapshot);
    bytes[bytes.length / 2] ^= 0x40;
    Files.write(snapshot, bytes);
    assertThat(fsm.ok("ls").out()).as("the clean index answers").contains("r1");

    FsmJar.Result check = fsm.run("store", "check");
    assertThat(check.exit()).isEqualTo(1);
    assertThat(check.out()).startsWith("store store: not compared, as its journal and snapshot"
        + " could not be read to their end").contains("journal: snapshot store/snapshot has a damaged record");
    assertThat(check.err()).endsWith("fsm: the journal or snapshot of store store cannot be read"
        + " to its end; the message above names the file and offset. Copy the folder somewhere"
        + " safe before anything else.\n");

    FsmJar.Result run = fsm.ok("run", "--until-idle");
    assertThat(run.err()).contains("fsm: warning: snapshot store/snapshot has a damaged record")
        .contains("; the index was sound, so a new snapshot was written from it and nothing is"
            + " lost\n");
    assertThat(fsm.ok("store", "check").out()).contains("index matches the journal");
    // The crash the damage waited for: the rebuild reads the new snapshot.
    assertThat(fsm.ok("store", "rebuild").out()).contains("rebuilt from the snapshot");
    assertThat(fsm.json("ls").size()).isEqualTo(1);
  }

  @Test
  void badOptionsAreUsageErrorsNamingTheOption() throws IOException {
    finishedAndNot();
    FsmJar.Result runnable = fsm.run("purge", "--older-than", "1d", "--status", "runnable");
    assertThat(runnable.exit()).isEqualTo(2);
    assertThat(runnable.err()).contains("--status").contains("never runnable ones (one of:"
        + " completed, failed, killed)");
    FsmJar.Result bad = fsm.run("purge", "--older-than", "soon");
    assertThat(bad.exit()).isEqualTo(2);
    assertThat(bad.err()).contains("'--older-than'").contains("bad duration `soon`");
    FsmJar.Result missing = fsm.run("purge");
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.err()).contains("--older-than");
    FsmJar.Result typo = fsm.run("purge", "--older-than", "0s", "--machine", "ordr");
    assertThat(typo.exit()).isEqualTo(1);
    assertThat(typo.err()).contains("no machine `ordr`").contains("did you mean `order`?");
    FsmJar.Result noStore = FsmJar.run(dir, "purge", "--older-than", "1d", "--store", "nope");
    assertThat(noStore.exit()).isEqualTo(1);
  }

  @Test
  void aRunnerThatOwnsTheStorePurgesForTheVerbAndKeepsRunning() throws IOException {
    FsmProcess runner = FsmProcess.start(dir, "run", "--store", "store").awaitServing();
    processes.add(runner);
    for (String id : List.of("a", "b", "c")) {
      fsm.ok("start", "order", "--id", id);
    }
    Await.until("three completed tasks", BOUND, () -> uncheckedCount("--status",
        "completed") == 3);

    FsmJar.Result purged = fsm.ok("purge", "--older-than", "0s");
    assertThat(purged.out()).startsWith("purged 3 tasks");
    assertThat(count()).isZero();
    assertThat(runner.alive()).isTrue();

    fsm.ok("start", "order", "--id", "a");
    Await.until("the reused id to complete", BOUND, () -> uncheckedCount("--status",
        "completed") == 1);
    assertThat(fsm.json("history", "a").size()).isEqualTo(1);
  }

  @Test
  void aRunnerPurgesByRetentionOnItsOwn() throws IOException {
    Files.writeString(dir.resolve("machines/order.yaml"), """
        machine: order
        retention: 1s
        states:
          pay:
            run: builtin:noop
            on: {ok: done}
          done: {final: completed}
        """);
    fsm.ok("start", "order", "--id", "old-1");
    fsm.ok("start", "order", "--id", "old-2");
    FsmProcess runner = FsmProcess.start(dir, "run", "--store", "store").awaitServing();
    processes.add(runner);
    Await.until("the runner to purge both tasks by retention; stderr: " + runner.err(), BOUND,
        () -> uncheckedCount() == 0);
    Await.until("the runner's retention line", BOUND, () -> runner.err().contains(
        "retention: purged"));
    assertThat(runner.err()).containsPattern("fsm run: retention: purged [12] tasks? of order"
        + " terminal for more than 1s\n");
    assertThat(runner.alive()).isTrue();
  }

  @Test
  void aPurgeKilledMidwayLeavesEveryTaskWholeOrGoneAndACleanStore() throws Exception {
    int tasks = finishedStore();
    long before = journalBytes();
    try (FsmProcess purge = FsmProcess.start(dir, "purge", "--older-than", "1d", "--store",
        "store")) {
      Await.until("the purge to start writing", BOUND, () -> journalBytes() > before
          || !purge.alive());
      assertThat(purge.alive()).as("the purge finished before the kill: %s", purge.out())
          .isTrue();
      purge.kill();
      assertThat(purge.awaitExit(BOUND)).isEqualTo(137);
    }
    assertThat(fsm.ok("store", "check").out()).contains("index matches the journal");
    long left = count();
    assertThat(left).as("tasks left after the kill").isBetween(1L, tasks - 1L);
    assertThat(count("--status", "completed")).isEqualTo(left);
    // Whatever is left is whole: every one still has its history entry.
    JsonNode first = fsm.json("ls", "--limit", "1");
    assertThat(fsm.json("history", first.get(0).get("id").asText()).size()).isEqualTo(1);

    FsmJar.Result rest = fsm.ok("purge", "--older-than", "1d");
    assertThat(rest.out()).startsWith("purged " + left + " tasks");
    assertThat(count()).isZero();
    assertThat(fsm.ok("store", "check").out()).contains("index matches the journal");
  }

  @Test
  void aRunnerKilledWhileItPurgesForAClientLeavesEveryTaskWholeOrGone() throws Exception {
    int tasks = finishedStore();
    FsmProcess runner = FsmProcess.start(dir, "run", "--store", "store").awaitServing();
    processes.add(runner);
    long before = journalBytes();
    try (FsmProcess purge = FsmProcess.start(dir, "purge", "--older-than", "1d", "--store",
        "store")) {
      Await.until("the runner to start purging", BOUND, () -> journalBytes() > before
          || !purge.alive());
      assertThat(purge.alive()).as("the purge finished before the kill: %s", purge.out())
          .isTrue();
      runner.kill();
      assertThat(runner.awaitExit(BOUND)).isEqualTo(137);
      assertThat(purge.awaitExit(BOUND)).isEqualTo(1);
      assertThat(purge.err()).contains("hung up before answering");
    }
    assertThat(fsm.ok("store", "check").out()).contains("index matches the journal");
    long left = count();
    assertThat(left).as("tasks left after the kill").isBetween(1L, tasks - 1L);
    FsmJar.Result rest = fsm.ok("purge", "--older-than", "1d");
    assertThat(rest.out()).startsWith("purged " + left + " tasks");
    assertThat(count()).isZero();
  }

  private long uncheckedCount(String... filters) {
    try {
      return count(filters);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  private long journalBytes() {
    try (Stream<Path> files = Files.list(dir.resolve("store/journal"))) {
      return files.mapToLong(p -> p.toFile().length()).sum();
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * Puts a copy of a store of {@link #FINISHED} completed tasks at {@code store}: the fixture
   * fills one the first time (some seconds on a busy machine), then each test gets a copy.
   */
  private int finishedStore() throws Exception {
    synchronized (PurgeIT.class) {
      if (finished == null) {
        Path made = Files.createTempDirectory("purge-it-");
        Process fill = new ProcessBuilder(JarCommand.java(), "-cp",
            System.getProperty("java.class.path"), StoreFixture.class.getName(), "finished",
            made.resolve("store").toString(), Integer.toString(FINISHED))
            .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        assertThat(fill.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(fill.exitValue()).isZero();
        finished = made;
      }
    }
    Trees.copy(finished.resolve("store"), dir.resolve("store"));
    return FINISHED;
  }

  @AfterAll
  static void dropFinishedStore() throws IOException {
    if (finished != null) {
      Trees.delete(finished);
      finished = null;
    }
  }

}

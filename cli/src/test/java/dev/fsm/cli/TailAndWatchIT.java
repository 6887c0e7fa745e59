package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fsm tail} prints what happens from when it starts, for the tasks it selects; {@code fsm
 * watch} says what its rows are when it cannot read them all.
 */
class TailAndWatchIT {

  @TempDir Path dir;

  /** The tail or runner a test started, stopped after it. */
  private FsmProcess background;

  @AfterEach
  void stopBackground() {
    if (background != null) {
      background.close();
    }
  }

  @Test
  void aTaskComingIntoTheSelectionShowsWhatBroughtItInNotItsOlderHistory() throws IOException {
    Files.createDirectories(dir.resolve("machines"));
    Files.writeString(dir.resolve("machines/job.yaml"), """
        machine: job
        states:
          step1:
            on: {go: step2}
          step2:
            on: {go: done}
          done: {final: completed}
        """);
    StoreCommands fsm = new StoreCommands(dir, "store");
    fsm.ok("start", "job", "--id", "j5");
    fsm.ok("signal", "j5", "go");
    fsm.ok("start", "job", "--id", "j6");
    FsmProcess tail = FsmProcess.start(dir, "tail", "--status", "paused", "--interval", "100ms",
        "--store", "store");
    background = tail;
    Await.until("tail to follow", Duration.ofSeconds(20),
        () -> tail.err().contains("fsm tail: following 0 task(s)"));

    fsm.ok("send", "j5", "pause", "--reason", "qa");
    Await.until("tail to print the pause; out: " + tail.out(), Duration.ofSeconds(20),
        () -> tail.out().contains("j5  job  step2 (pause)  paused"));
    fsm.ok("send", "j5", "resume");
    fsm.ok("send", "j6", "pause");
    Await.until("tail to print j6's pause; out: " + tail.out(), Duration.ofSeconds(20),
        () -> tail.out().contains("j6  job  step1 (pause)  paused"));

    assertThat(tail.out()).as("the transition before tail started")
        .doesNotContain("step1 -go-> step2");
    assertThat(tail.out().lines().filter(l -> l.contains("  j5  ")).count())
        .as("j5 left the selection when resumed: its pause only").isEqualTo(1);
  }

  @Test
  void watchOverMoreTasksThanItReadsSaysWhatItsRowsAreAndCountsThemAll() throws IOException {
    Files.createDirectories(dir.resolve("machines"));
    Files.writeString(dir.resolve("machines/job.yaml"), """
        machine: job
        states:
          step1:
            on: {go: done}
          done: {final: completed}
        """);
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 1_200; i++) {
      lines.append("{}\n");
    }
    Files.writeString(dir.resolve("many.jsonl"), lines);
    StoreCommands fsm = new StoreCommands(dir, "store");
    fsm.ok("start", "job", "--from", "many.jsonl");

    FsmJar.Result watch = fsm.ok("watch", "-n", "1");
    assertThat(watch.out()).contains("... and 1180 tasks more; the rows above are the latest"
        + " changes among the first 1000 tasks by id: narrow with --machine, --state or --status");
  }

  @Test
  void watchBesideARunnerHeadsItsRowsWithTheLatestChangesAmongAllTasks() throws IOException {
    Files.createDirectories(dir.resolve("machines"));
    Files.writeString(dir.resolve("machines/job.yaml"), """
        machine: job
        states:
          step1:
            on: {go: done}
          done: {final: completed}
        """);
    StringBuilder lines = new StringBuilder();
    for (int i = 0; i < 1_200; i++) {
      lines.append(String.format("{\"id\": \"t%04d\"}%n", i));
    }
    Files.writeString(dir.resolve("many.jsonl"), lines);
    StoreCommands fsm = new StoreCommands(dir, "store");
    fsm.ok("start", "job", "--from", "many.jsonl");
    background = FsmProcess.start(dir, "run", "--store", "store").awaitServing();
    // Both past the first 1,000 ids, which are all a watch by id would read.
    fsm.ok("send", "t1150", "pause");
    fsm.ok("signal", "t1199", "go");

    String frame = fsm.ok("watch", "-n", "1").out();
    List<String> rows = frame.lines().filter(l -> l.startsWith("t")).toList();
    assertThat(rows.get(0)).as(frame).startsWith("t1199").contains("completed");
    assertThat(rows.get(1)).as(frame).startsWith("t1150").contains("paused");
    assertThat(frame).contains("... and 1180 tasks more; the first 2 rows are the latest changes,"
        + " those below the latest changes among the first 1000 tasks by id: narrow with");
  }
}

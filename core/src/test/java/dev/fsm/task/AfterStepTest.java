package dev.fsm.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code pause --after-step}: asking marks a task whose action runs and pauses any other at
 * once; the store settles the mark when the runner's step ends, wherever the step led.
 */
class AfterStepTest {

  private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
  private static final Instant NOW = T0.plusSeconds(60);
  private static final Lease RUNNER = new Lease("runner:7@h", NOW.plusSeconds(30));
  private static final Commands.Request AFTER_STEP =
      new Commands.Request(null, "deploy window", "user:ann", null, true, null);
  private static final Pausing MARK = new Pausing(T0.plusSeconds(10), "user:ann", "deploy window");

  private static Task task(TaskStatus status, Instant due, Lease lease) {
    return new Task("t1", "order", "abc123", "ship", status, "{}", 2, List.of(), T0, T0, T0, due,
        lease);
  }

  @Test
  void askingWhileAnActionRunsMarksTheTaskAndLeavesTheActionAlone() {
    Task running = task(TaskStatus.RUNNABLE, T0, RUNNER);
    Change c = Commands.apply(running, Command.PAUSE, AFTER_STEP, NOW);
    assertThat(c.next().status()).isEqualTo(TaskStatus.RUNNABLE);
    assertThat(c.next().lease()).isEqualTo(RUNNER);
    assertThat(c.next().due()).isEqualTo(T0);
    assertThat(c.next().pausing()).isEqualTo(new Pausing(NOW, "user:ann", "deploy window"));
    assertThat(c.entry()).isEqualTo(new Transition(NOW, "ship", "pause --after-step", "ship", 0,
        2, "user:ann", "deploy window"));
  }

  @Test
  void aSecondAskKeepsTheFirstMark() {
    Task marked = task(TaskStatus.RUNNABLE, T0, RUNNER).withPausing(MARK);
    Change again = Commands.apply(marked, Command.PAUSE,
        new Commands.Request(null, "", "user:bob", null, true, null), NOW);
    assertThat(again.next()).isEqualTo(marked.withChanged(NOW));
    assertThat(again.entry().by()).isEqualTo("user:bob");
  }

  @Test
  void withNoActionRunningItPausesAtOnce() {
    Lease expired = new Lease("runner:dead@h", NOW.minusSeconds(1));
    for (Task idle : List.of(task(TaskStatus.RUNNABLE, T0, null),
        task(TaskStatus.RUNNABLE, T0, expired), task(TaskStatus.SLEEPING, NOW.plusSeconds(60),
            null))) {
      Change c = Commands.apply(idle, Command.PAUSE, AFTER_STEP, NOW);
      assertThat(c.next().status()).isEqualTo(TaskStatus.PAUSED);
      assertThat(c.next().pausing()).isNull();
      assertThat(c.next().lease()).isNull();
      assertThat(c.entry().event()).isEqualTo("pause");
    }
  }

  @Test
  void onlyPauseTakesIt() {
    assertThat(AfterStep.commands()).isEqualTo("`pause`");
    assertThatThrownBy(() -> Commands.apply(task(TaskStatus.RUNNABLE, T0, RUNNER), Command.KILL,
        AFTER_STEP, NOW)).isInstanceOf(FsmException.class)
        .hasMessage("task `t1`: --after-step is for `pause` only");
    assertThatThrownBy(() -> Commands.apply(task(TaskStatus.FAULT, null, null), Command.PAUSE,
        AFTER_STEP, NOW)).isInstanceOf(FsmException.class)
        .hasMessageContaining("`pause` is not allowed while the task is fault");
  }

  @Test
  void runCancelsItAndPauseOrKillActAtOnceWhileCheckpointAndReleaseKeepIt() {
    Task marked = task(TaskStatus.RUNNABLE, T0, RUNNER).withPausing(MARK);
    Commands.Request plain = new Commands.Request(null, "", "user:bob");
    Change run = Commands.apply(marked, Command.RUN, plain, NOW);
    assertThat(run.next().pausing()).isNull();
    assertThat(run.next().lease()).isEqualTo(RUNNER);
    Change pause = Commands.apply(marked, Command.PAUSE, plain, NOW);
    assertThat(pause.next().status()).isEqualTo(TaskStatus.PAUSED);
    assertThat(pause.next().pausing()).isNull();
    assertThat(pause.next().lease()).isNull();
    Change kill = Commands.apply(marked, Command.KILL, plain, NOW);
    assertThat(kill.next().status()).isEqualTo(TaskStatus.KILLED);
    assertThat(kill.next().pausing()).isNull();
    assertThat(Commands.apply(marked, Command.CHECKPOINT, plain, NOW).next().pausing())
        .isEqualTo(MARK);
    Change release = Commands.apply(marked, Command.RELEASE, plain, NOW);
    assertThat(release.next().pausing()).isEqualTo(MARK);
    assertThat(release.next().lease()).isNull();
  }

  @Test
  void aStepThatMovesOnIsRecordedThenPausedInTheNewStateByTheAsker() {
    Task after = new Task("t1", "order", "abc123", "deliver", TaskStatus.RUNNABLE, "{}", 0,
        List.of(), T0, NOW, NOW, NOW, null);
    Transition ok = new Transition(NOW, "ship", "ok", "deliver", 1500, 3, "runner:7@h/w1", "");
    List<Change> settled = AfterStep.settle(MARK, new Change(after, ok));
    assertThat(settled).hasSize(2);
    assertThat(settled.get(0)).isEqualTo(new Change(after, ok));
    Task paused = settled.get(1).next();
    assertThat(paused.state()).isEqualTo("deliver");
    assertThat(paused.status()).isEqualTo(TaskStatus.PAUSED);
    assertThat(paused.due()).isNull();
    assertThat(paused.pausing()).isNull();
    assertThat(settled.get(1).entry()).isEqualTo(new Transition(NOW, "deliver", "pause",
        "deliver", 0, 0, "user:ann", "deploy window"));
  }

  @Test
  void aStepThatEndsTheTaskEndsItThere() {
    Task done = new Task("t1", "order", "abc123", "done", TaskStatus.COMPLETED, "{}", 0,
        List.of(), T0, NOW, NOW, null, null);
    Transition ok = new Transition(NOW, "ship", "ok", "done", 10, 3, "runner:7@h/w1", "");
    assertThat(AfterStep.settle(MARK, new Change(done.withPausing(MARK), ok)))
        .containsExactly(new Change(done, ok));
  }

  @Test
  void anErrorThatWouldSleepPausesInsteadWithTheErrorRecorded() {
    TaskError error = new TaskError(NOW, "carrier down");
    Task retrying = new Task("t1", "order", "abc123", "ship", TaskStatus.SLEEPING, "{}", 3,
        List.of(error), T0, T0, NOW, NOW.plusSeconds(600), null);
    Transition failed = new Transition(NOW, "ship", "error", "ship", 20, 3, "runner:7@h/w1",
        "carrier down; retry 1 of 8 in 10m");
    List<Change> settled = AfterStep.settle(MARK, new Change(retrying, failed));
    assertThat(settled.get(0).entry()).isEqualTo(failed);
    Task paused = settled.get(1).next();
    assertThat(paused.status()).isEqualTo(TaskStatus.PAUSED);
    assertThat(paused.due()).isNull();
    assertThat(paused.errors()).containsExactly(error);
  }

  @Test
  void aStepThatParksTheTaskInFaultLeavesItThere() {
    Task fault = new Task("t1", "order", "abc123", "ship", TaskStatus.FAULT, "{}", 3,
        List.of(new TaskError(NOW, "no edge")), T0, T0, NOW, null, null);
    Transition parked = new Transition(NOW, "ship", "error", "ship", 0, 3, "runner:7@h/w1",
        "no edge");
    assertThat(AfterStep.settle(MARK, new Change(fault, parked)))
        .containsExactly(new Change(fault, parked));
  }

  @Test
  void aRecordThatKeepsTheLeaseIsNotTheStepsEndAndKeepsTheMark() {
    Task started = task(TaskStatus.RUNNABLE, T0, RUNNER);
    Transition start = new Transition(NOW, "ship", "start", "ship", 0, 3, "runner:7@h/w1", "");
    assertThat(AfterStep.settle(MARK, new Change(started, start)))
        .containsExactly(new Change(started.withPausing(MARK), start));
  }

  @Test
  void withNoMarkTheChangeIsRecordedAsItIsAndACancelledMarkStaysCancelled() {
    Task after = task(TaskStatus.RUNNABLE, NOW, null);
    Transition ok = new Transition(NOW, "ship", "ok", "ship", 1, 3, "runner:7@h/w1", "");
    assertThat(AfterStep.settle(null, new Change(after, ok)))
        .containsExactly(new Change(after, ok));
    assertThat(AfterStep.settle(null, new Change(after.withPausing(MARK), ok)))
        .containsExactly(new Change(after, ok));
  }

  @Test
  void aClaimedPausingTaskPausesAtOnceAsTheAskersPause() {
    Task claimed = task(TaskStatus.RUNNABLE, T0, RUNNER).withPausing(MARK);
    Change c = AfterStep.pauseNow(claimed, NOW);
    assertThat(c.next().status()).isEqualTo(TaskStatus.PAUSED);
    assertThat(c.next().lease()).isNull();
    assertThat(c.next().pausing()).isNull();
    assertThat(c.entry()).isEqualTo(new Transition(NOW, "ship", "pause", "ship", 0, 2,
        "user:ann", "deploy window"));
    assertThat(AfterStep.settle(MARK, c)).containsExactly(c);
  }

  @Test
  void aRefusalNamesTheWordTyped() {
    assertThatThrownBy(() -> Commands.apply(task(TaskStatus.COMPLETED, null, null), Command.RUN,
        new Commands.Request(null, "", "user:ann", null, false, "resume"), NOW))
        .isInstanceOf(FsmException.class).hasMessage("task `t1`: `resume` is not allowed: the"
            + " task is completed, which is final; no command changes it");
    assertThat(new Commands.Request(null, "", "x", null, false, "kill").word(Command.RUN))
        .as("a word that is not one of the command's names").isEqualTo("run");
  }
}

package dev.fsm.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What each command does to a task's status, schedule, lease, errors and history. */
class CommandsTest {

  private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
  private static final Instant NOW = T0.plusSeconds(60);
  private static final Commands.Request BY_ANN = new Commands.Request(null, "", "ann");

  private static Task task(TaskStatus status, Instant due, Lease lease) {
    return new Task("t1", "order", "abc123", "ship", status, "{}", 2, List.of(), T0, T0, T0, due,
        lease);
  }

  private static final Lease RUNNER = new Lease("runner-1", NOW.plusSeconds(30));

  @Test
  void pauseHoldsTheTaskAndDropsTheRunnersLease() {
    Change c = Commands.apply(task(TaskStatus.RUNNABLE, T0, RUNNER), Command.PAUSE, BY_ANN, NOW);
    assertThat(c.next().status()).isEqualTo(TaskStatus.PAUSED);
    assertThat(c.next().due()).isNull();
    assertThat(c.next().lease()).isNull();
    assertThat(c.entry()).isEqualTo(new Transition(NOW, "ship", "pause", "ship", 0, 2, "ann", ""));
  }

  @Test
  void runMakesItDueNow() {
    Change c = Commands.apply(task(TaskStatus.PAUSED, null, null), Command.RUN, BY_ANN, NOW);
    assertThat(c.next().status()).isEqualTo(TaskStatus.RUNNABLE);
    assertThat(c.next().due()).isEqualTo(NOW);
    assertThat(c.next().claimableAt(NOW)).isTrue();
  }

  @Test
  void sleepNeedsATimeAndWakesThen() {
    Instant later = NOW.plusSeconds(600);
    Change c = Commands.apply(task(TaskStatus.RUNNABLE, T0, RUNNER), Command.SLEEP,
        new Commands.Request(later, "", "ann"), NOW);
    assertThat(c.next().status()).isEqualTo(TaskStatus.SLEEPING);
    assertThat(c.next().due()).isEqualTo(later);
    assertThat(c.next().claimableAt(NOW)).isFalse();
    assertThat(c.next().claimableAt(later)).isTrue();
    assertThatThrownBy(() -> Commands.apply(task(TaskStatus.RUNNABLE, T0, null), Command.SLEEP,
        BY_ANN, NOW)).isInstanceOf(FsmException.class).hasMessage(
            "task `t1`: `sleep` needs --until TIME|DURATION");
  }

  @Test
  void errorRecordsTheReasonAndLeavesTheTaskForItsErrorPolicy() {
    Change c = Commands.apply(task(TaskStatus.RUNNABLE, T0, RUNNER), Command.ERROR,
        new Commands.Request(null, "carrier is on strike", "ann"), NOW);
    assertThat(c.next().status()).isEqualTo(TaskStatus.FAULT);
    assertThat(c.next().errors()).containsExactly(new TaskError(NOW, "carrier is on strike"));
    assertThat(c.next().lease()).isNull();
    assertThat(c.next().claimableAt(NOW)).as("a runner applies the error policy").isTrue();
    assertThat(c.entry().reason()).isEqualTo("carrier is on strike");

    Change failed = Commands.apply(c.next(), Command.ERROR, BY_ANN, NOW);
    assertThat(failed.next().status()).isEqualTo(TaskStatus.FAILED);
    assertThat(failed.next().claimableAt(NOW)).isFalse();
  }

  @Test
  void releaseHandsARunnableTaskBackAtOnceAndKeepsASleepersTime() {
    Change runnable = Commands.apply(task(TaskStatus.RUNNABLE, T0, RUNNER), Command.RELEASE,
        BY_ANN, NOW);
    assertThat(runnable.next().lease()).isNull();
    assertThat(runnable.next().due()).isEqualTo(NOW);
    Instant wake = NOW.plusSeconds(99);
    Change sleeping = Commands.apply(task(TaskStatus.SLEEPING, wake, null), Command.RELEASE,
        BY_ANN, NOW);
    assertThat(sleeping.next().due()).isEqualTo(wake);
  }

  @Test
  void checkpointChangesNothingButTheHistory() {
    Task before = task(TaskStatus.RUNNABLE, T0, RUNNER);
    Change c = Commands.apply(before, Command.CHECKPOINT, BY_ANN, NOW);
    assertThat(c.next()).isEqualTo(before.withChanged(NOW));
    assertThat(c.next().updated()).isEqualTo(NOW);
    assertThat(c.entry().event()).isEqualTo("checkpoint");
  }

  @Test
  void killAndCompleteEndTheTaskForGood() {
    Task killed = Commands.apply(task(TaskStatus.SLEEPING, NOW, null), Command.KILL, BY_ANN, NOW)
        .next();
    assertThat(killed.status()).isEqualTo(TaskStatus.KILLED);
    assertThat(killed.claimableAt(NOW.plusSeconds(1_000_000))).isFalse();
    assertThat(Commands.apply(task(TaskStatus.RUNNABLE, T0, null), Command.COMPLETE, BY_ANN, NOW)
        .next().status()).isEqualTo(TaskStatus.COMPLETED);
    assertThatThrownBy(() -> Commands.apply(killed, Command.RUN, BY_ANN, NOW))
        .hasMessage("task `t1`: `run` is not allowed while the task is killed, which is final;"
            + " allowed now: redrive");
  }

  @Test
  void redriveStartsAnEndedTaskOverWhereItStoppedKeepingItsHistory() {
    Task failed = new Task("t1", "order", "abc123", "ship", TaskStatus.FAILED, "{\"n\":1}", 8,
        List.of(new TaskError(T0, "timeout"), new TaskError(T0, "503")), T0, T0, T0, null,
        RUNNER);
    Change c = Commands.apply(failed, Command.REDRIVE,
        new Commands.Request(null, "db back", "ann"), NOW);
    assertThat(c.next()).isEqualTo(new Task("t1", "order", "abc123", "ship",
        TaskStatus.RUNNABLE, "{\"n\":1}", 0, List.of(), T0, NOW, T0, NOW, null));
    assertThat(c.next().claimableAt(NOW)).isTrue();
    assertThat(c.entry()).isEqualTo(
        new Transition(NOW, "ship", "redrive", "ship", 0, 8, "ann", "db back"));
  }

  @Test
  void redriveToAnotherStateRecordsTheMove() {
    Task killed = task(TaskStatus.KILLED, null, null);
    Change c = Commands.apply(killed, Command.REDRIVE,
        new Commands.Request(null, "", "ann", "pack"), NOW);
    assertThat(c.next().state()).isEqualTo("pack");
    assertThat(c.next().status()).isEqualTo(TaskStatus.RUNNABLE);
    assertThat(c.entry()).isEqualTo(new Transition(NOW, "ship", "redrive", "pack", 0, 2, "ann",
        ""));
  }

  @Test
  void redriveIsRefusedForACompletedOrLiveTaskAndToForAnyOtherCommand() {
    assertThatThrownBy(() -> Commands.apply(task(TaskStatus.COMPLETED, null, null),
        Command.REDRIVE, BY_ANN, NOW)).isInstanceOf(FsmException.class).hasMessage(
            "task `t1`: `redrive` is not allowed: the task is completed, which is final; no"
                + " command changes it");
    assertThatThrownBy(() -> Commands.apply(task(TaskStatus.FAULT, NOW, null),
        Command.REDRIVE, BY_ANN, NOW)).hasMessage("task `t1`: `redrive` is not allowed while"
            + " the task is fault; allowed now: sleep, error");
    assertThatThrownBy(() -> Commands.apply(task(TaskStatus.PAUSED, null, null), Command.RUN,
        new Commands.Request(null, "", "ann", "pack"), NOW))
        .hasMessage("task `t1`: --to is for `redrive` only");
  }

  @Test
  void aRefusedPairLeavesNothingChangedAndSaysWhatIsAllowed() {
    assertThatThrownBy(() -> Commands.apply(task(TaskStatus.PAUSED, null, null), Command.COMPLETE,
        BY_ANN, NOW)).isInstanceOf(FsmException.class).hasMessage("task `t1`: `complete` is not"
            + " allowed while the task is paused; allowed now: run, pause, sleep, kill,"
            + " checkpoint, release");
  }

  @Test
  void aReasonLongerThanTheHistoryKeepsIsRefused() {
    assertThat(new Commands.Request(null, "r".repeat(1000), "user:ann").reason()).hasSize(1000);
    assertThatThrownBy(() -> new Commands.Request(null, "r".repeat(1001), "user:ann"))
        .isInstanceOf(FsmException.class).hasMessage("--reason is 1001 characters long; keep it"
            + " under 1000, as it is kept in the task's history");
  }
}

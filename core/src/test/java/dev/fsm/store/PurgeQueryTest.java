package dev.fsm.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which tasks a purge selects, and how old a terminal task is. */
class PurgeQueryTest {

  private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

  private static Task task(TaskStatus status, Instant stateEntered, Instant lastAttempt) {
    return new Task("t1", "order", "v1", "done", status, "{}", 0, List.of(), T0, stateEntered,
        lastAttempt, null, null);
  }

  private static Transition entry(Instant at) {
    return new Transition(at, "pay", "kill", "pay", 0, 0, "user:ann", "");
  }

  @Test
  void aTaskIsAsOldAsItsLastChangeItsNewestEntryOrElseItsLastUpdate() {
    Task t = task(TaskStatus.KILLED, T0, T0.plusSeconds(30));
    assertThat(PurgeQuery.terminalAt(t, null)).isEqualTo(T0.plusSeconds(30));
    assertThat(PurgeQuery.terminalAt(t, entry(T0.plusSeconds(90)))).isEqualTo(
        T0.plusSeconds(90));
    // An entry older than the task's own times (a replayed import, a skewed clock) never makes
    // it look older than its last update.
    assertThat(PurgeQuery.terminalAt(t, entry(T0))).isEqualTo(T0.plusSeconds(30));
  }

  @Test
  void onlyTasksTerminalStrictlyBeforeTheCutoffOfTheSelectedMachineAndStatusesMatch() {
    PurgeQuery q = new PurgeQuery(Optional.of("order"), Set.of(TaskStatus.COMPLETED),
        Duration.ofHours(1), false, Optional.empty(), 10);
    Instant now = T0.plus(Duration.ofHours(1));
    Task done = task(TaskStatus.COMPLETED, T0, null);
    assertThat(q.matches(done, null, now)).as("exactly as old as the age").isFalse();
    assertThat(q.matches(done, null, now.plusMillis(1))).isTrue();
    assertThat(q.matches(task(TaskStatus.FAILED, T0, null), null, now.plusSeconds(1)))
        .isFalse();
    Task other = new Task("t2", "refund", "v1", "done", TaskStatus.COMPLETED, "{}", 0,
        List.of(), T0, T0, null, null, null);
    assertThat(q.matches(other, null, now.plusSeconds(1))).isFalse();
    assertThat(q.matches(task(TaskStatus.RUNNABLE, T0, null), null, now.plusSeconds(1)))
        .isFalse();
  }

  @Test
  void noStatusesMeansEveryTerminalOneAndOthersAreRefused() {
    PurgeQuery all = PurgeQuery.olderThan(Duration.ofDays(30));
    assertThat(all.statuses()).containsExactlyInAnyOrder(TaskStatus.COMPLETED,
        TaskStatus.FAILED, TaskStatus.KILLED);
    assertThat(all.candidates().statuses()).containsExactlyInAnyOrder(ShownStatus.COMPLETED,
        ShownStatus.FAILED, ShownStatus.KILLED);
    assertThat(all.candidates().sort()).isEqualTo(TaskQuery.Sort.ID);
    assertThat(all.after("t9").candidates().afterId()).contains("t9");
    for (TaskStatus s : List.of(TaskStatus.RUNNABLE, TaskStatus.SLEEPING, TaskStatus.PAUSED,
        TaskStatus.FAULT)) {
      assertThatThrownBy(() -> new PurgeQuery(Optional.empty(), Set.of(s), Duration.ZERO,
          false, Optional.empty(), 10)).hasMessageContaining("not " + s.word());
    }
    assertThatThrownBy(() -> PurgeQuery.olderThan(Duration.ofSeconds(-1)))
        .hasMessageContaining("negative");
    assertThatThrownBy(() -> all.batch(0)).hasMessageContaining("at least 1");
  }
}

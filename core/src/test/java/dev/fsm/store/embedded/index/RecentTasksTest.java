package dev.fsm.store.embedded.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The recent-tasks cache: bounded in tasks and in context size, least recently used out first. */
class RecentTasksTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static Task task(String id, int contextChars) {
    String context = "{\"pad\":\"" + "x".repeat(contextChars - 10) + "\"}";
    return new Task(id, "m", "v1", "a", TaskStatus.RUNNABLE, context, 0, List.of(), T0, T0, T0,
        T0, null);
  }

  @Test
  void keepsAtMostItsCapacityDroppingTheLeastRecentlyUsed() {
    RecentTasks recent = new RecentTasks(3, 1_000_000);
    recent.stored(task("t1", 100));
    recent.stored(task("t2", 100));
    recent.stored(task("t3", 100));
    assertThat(recent.get("t1")).isNotNull();
    recent.stored(task("t4", 100));

    assertThat(recent.get("t2")).as("least recently used").isNull();
    assertThat(recent.get("t1")).isNotNull();
    assertThat(recent.size()).isEqualTo(3);
    assertThat(recent.chars()).isEqualTo(300);
  }

  @Test
  void largeContextsAreDroppedByTheirSizeNotOnlyTheirCount() {
    RecentTasks recent = new RecentTasks(8192, 10_000);
    for (int i = 0; i < 100; i++) {
      recent.stored(task("t" + i, 3_000));
    }
    assertThat(recent.size()).isEqualTo(3);
    assertThat(recent.chars()).isEqualTo(9_000);
    assertThat(recent.get("t99")).isNotNull();
    assertThat(recent.get("t96")).isNull();
  }

  @Test
  void replacingAndForgettingKeepTheCountOfCharactersRight() {
    RecentTasks recent = new RecentTasks(10, 10_000);
    recent.stored(task("t1", 4_000));
    recent.tail("t1", new TaskHistories.Tail(7, new byte[300]));
    assertThat(recent.chars()).as("a tail's chunk counts as well").isEqualTo(4_300);
    recent.stored(task("t1", 1_000));
    assertThat(recent.chars()).isEqualTo(1_300);
    assertThat(recent.get("t1").historyLength()).isEqualTo(7);
    recent.stored(task("t1", 1_000), null);
    assertThat(recent.chars()).isEqualTo(1_000);
    assertThat(recent.get("t1").historyLength()).as("tail not known").isEqualTo(-1);

    recent.stored(task("t2", 2_000));
    recent.forget("t1");
    recent.forget("t1");
    assertThat(recent.chars()).isEqualTo(2_000);
    assertThat(recent.size()).isEqualTo(1);
  }

  @Test
  void aTaskLargerThanTheBudgetIsStillKeptAsTheNewest() {
    RecentTasks recent = new RecentTasks(10, 1_000);
    recent.stored(task("t1", 500));
    recent.stored(task("t2", 5_000));
    assertThat(recent.get("t1")).isNull();
    assertThat(recent.get("t2")).isNotNull();
    assertThat(recent.chars()).isEqualTo(5_000);
  }
}

package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The histories of a machine's newest tasks, read within a budget of entries. */
class NewestHistoriesTest {

  private static final Instant T0 = Instant.parse("2026-11-29T00:00:00Z");

  @Test
  void tasksWithLongHistoriesAreReadUpToTheBudgetOfEntries() {
    int perTask = 10_000;
    try (InMemoryStore store = new InMemoryStore()) {
      List<TaskHistory> tasks = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        List<Transition> history = new ArrayList<>(perTask);
        for (int n = 0; n < perTask; n++) {
          history.add(new Transition(T0.plusMillis(n), "a", "ok", "a", 1, 0, "r/w1", ""));
        }
        tasks.add(new TaskHistory(new Task(String.format("t%02d", i), "loop", "v", "a",
            TaskStatus.RUNNABLE, "{}", 0, List.of(), T0, T0, null, T0, null), history));
      }
      store.restore(tasks);

      List<String> read = new ArrayList<>();
      int n = NewestHistories.read(store, "loop", 2_000, 1, h -> {
        read.add(h.get(0).by());
        return true;
      });

      assertThat(n).isEqualTo((int) (NewestHistories.MAX_ENTRIES / perTask));
      assertThat(read).hasSize(n);
    }
  }

  @Test
  void aBacklogOfTasksNotYetRunDoesNotHideTheWorkBeforeIt() {
    try (InMemoryStore store = new InMemoryStore()) {
      List<TaskHistory> tasks = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        tasks.add(new TaskHistory(task(String.format("a%03d", i)), List.of(
            new Transition(T0, "a", "error", "a", 1, 0, "r/w1", "down"))));
      }
      // Newer ids, started after the failures, with no history yet.
      for (int i = 0; i < 300; i++) {
        tasks.add(new TaskHistory(task(String.format("b%03d", i)), List.of()));
      }
      store.restore(tasks);

      List<String> reasons = new ArrayList<>();
      int n = NewestHistories.read(store, "loop", 100, NewestHistories.PASSED_OVER,
          h -> reasons.add(h.get(0).reason()));

      assertThat(n).isEqualTo(10);
      assertThat(reasons).hasSize(10).containsOnly("down");
      // Past PASSED_OVER tasks per history wanted, it stops looking.
      assertThat(NewestHistories.read(store, "loop", 50, NewestHistories.PASSED_OVER, h -> true))
          .isZero();
      // A reader that must not take its time looks at no more tasks than it wants.
      assertThat(NewestHistories.read(store, "loop", 300, 1, h -> true)).isZero();
    }
  }

  private static Task task(String id) {
    return new Task(id, "loop", "v", "a", TaskStatus.RUNNABLE, "{}", 0, List.of(), T0, T0, null,
        T0, null);
  }
}

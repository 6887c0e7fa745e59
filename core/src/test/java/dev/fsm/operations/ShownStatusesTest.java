package dev.fsm.operations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.OperatorListener;
import dev.fsm.engine.ShownStatuses;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Command;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runnable tasks in a signal state show and select as waiting; in other states as runnable. */
class ShownStatusesTest {

  private static final String SIGN = """
      machine: sign
      initial: approve
      states:
        approve:
          on: {yes: work}
        work:
          run: builtin:noop
          on: {ok: done}
        done: {final: completed}
      """;

  @TempDir Path dir;
  private InMemoryStore store;
  private StoreOperations ops;

  @BeforeEach
  void setUp() {
    store = new InMemoryStore();
    ops = new StoreOperations(store, new MachineLibrary(store, dir), Clock.systemUTC(),
        "user:test", OperatorListener.NONE, true);
  }

  @Test
  void aRunnableTaskInASignalStateShowsAsWaiting() {
    List<Task> started = start(3);
    ops.send(started.get(2).id(), Command.PAUSE, null, null);
    ShownStatuses shown = new ShownStatuses(store::versions);
    assertThat(started.get(0).status()).isEqualTo(TaskStatus.RUNNABLE);
    assertThat(shown.of(started.get(0))).isEqualTo(ShownStatus.WAITING);
    assertThat(shown.of(store.get(started.get(2).id()).orElseThrow()))
        .isEqualTo(ShownStatus.PAUSED);
    assertThat(shown.of(new TaskCount("sign", "approve", TaskStatus.RUNNABLE, 2)))
        .isEqualTo(ShownStatus.WAITING);
    assertThat(shown.of(new TaskCount("sign", "work", TaskStatus.RUNNABLE, 2)))
        .isEqualTo(ShownStatus.RUNNABLE);
    assertThat(shown.counts("sign", "approve",
        Map.of(TaskStatus.RUNNABLE, 2L, TaskStatus.PAUSED, 1L)))
        .containsEntry(ShownStatus.WAITING, 2L).containsEntry(ShownStatus.PAUSED, 1L)
        .doesNotContainKey(ShownStatus.RUNNABLE);
  }

  @Test
  void aVersionWhoseProgramsAreElsewhereStillShowsItsSignalStates() {
    // A stored version names programs relative to a file this process may never see.
    String text = SIGN.replace("builtin:noop", "scripts/not-here.sh");
    store.register("sign", text, Instant.EPOCH);
    String version = store.versions("sign").get(0).version();
    Task t = new Task("x", "sign", version, "approve", TaskStatus.RUNNABLE, "{}", 0, List.of(),
        Instant.EPOCH, Instant.EPOCH, null, null, null);
    assertThat(new ShownStatuses(store::versions).of(t)).isEqualTo(ShownStatus.WAITING);
  }

  @Test
  void waitingAndRunnableSelectApartAcrossPages() {
    List<Task> started = start(1200);
    // Move every third task on to the action state, where it is runnable, not waiting.
    List<String> moved = new ArrayList<>();
    for (int i = 0; i < started.size(); i += 3) {
      ops.signal(started.get(i).id(), "yes", null);
      moved.add(started.get(i).id());
    }
    assertThat(ids(Set.of(ShownStatus.RUNNABLE), 2000)).containsExactlyElementsOf(moved);
    assertThat(ids(Set.of(ShownStatus.WAITING), 2000)).hasSize(800)
        .doesNotContainAnyElementsOf(moved);
    assertThat(ids(Set.of(ShownStatus.RUNNABLE), 5))
        .containsExactlyElementsOf(moved.subList(0, 5));
    assertThat(ids(Set.of(ShownStatus.RUNNABLE, ShownStatus.WAITING), 2000)).hasSize(1200);
    assertThat(ids(Set.of(ShownStatus.PAUSED), 10)).isEmpty();

    BulkSendReport paused = ops.sendAll(new TaskSelector("sign", Optional.empty(),
        Set.of(ShownStatus.RUNNABLE)), Command.PAUSE, null, "bulk", false);
    assertThat(paused.matched()).isEqualTo(400);
    assertThat(ids(Set.of(ShownStatus.PAUSED), 2000)).containsExactlyElementsOf(moved);
  }

  private List<Task> start(int n) {
    List<NewTask> tasks = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      tasks.add(new NewTask(String.format("t%05d", i), "{}", null));
    }
    return ops.start(new MachineSource("sign", dir.resolve("sign.yaml"), SIGN), tasks);
  }

  private List<String> ids(Set<ShownStatus> statuses, int limit) {
    return ops.list(new TaskQuery(Optional.of("sign"), Optional.empty(), statuses,
        Optional.empty(), limit, TaskQuery.Order.ASCENDING, TaskQuery.Sort.CREATED)).stream()
        .map(Task::id).toList();
  }
}

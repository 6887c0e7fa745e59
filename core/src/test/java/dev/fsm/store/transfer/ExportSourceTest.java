package dev.fsm.store.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.store.Store;
import dev.fsm.store.TaskNotFoundException;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** Pages of an export read from a store: every task once, bounded, and each with its history. */
class ExportSourceTest {

  private static final Instant T0 = TransferRoundTripTest.T0;

  @Test
  void pagesGiveEveryTaskOnceInIdOrderWithItsHistory() {
    Store store = TransferRoundTripTest.source();
    ExportSource source = ExportSource.of(store);
    List<TaskHistory> read = new ArrayList<>();
    String after = null;
    int pages = 0;
    do {
      ExportPage page = source.page(after, 100);
      read.addAll(page.tasks());
      after = page.next();
      pages++;
    } while (after != null);
    assertThat(pages).isEqualTo(13);
    assertThat(source.taskCount()).isEqualTo(1234);
    List<Task> all = store.list(TaskQuery.all(2000));
    assertThat(read).extracting(t -> t.task()).containsExactlyElementsOf(all);
    for (TaskHistory t : read) {
      assertThat(t.history()).isEqualTo(store.history(t.task().id()));
    }
  }

  @Test
  void aPageStopsTakingTasksOnceItsHistoriesAreLong() {
    Store store = new InMemoryStore();
    List<TaskHistory> tasks = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      tasks.add(new TaskHistory(task(String.format("t-%03d", i), "a"), history(100)));
    }
    store.register("m", "name: m\n", T0);
    store.restore(tasks);
    // Histories come 100 tasks at a time: two such reads reach 20,000 entries.
    ExportPage first = ExportSource.of(store).page(null, 500);
    assertThat(first.tasks()).hasSize(200);
    assertThat(first.next()).isEqualTo("t-199");
    ExportPage second = ExportSource.of(store).page(first.next(), 500);
    assertThat(second.tasks()).extracting(t -> t.task().id()).first().isEqualTo("t-200");
    assertThat(second.tasks()).hasSize(100);
    assertThat(second.next()).isNull();
  }

  @Test
  void aTaskThatChangesBetweenItsReadsIsReadAgainWithTheHistoryThatMatchesIt() {
    Task listed = task("t-1", "a");
    Task moved = task("t-1", "b");
    Iterator<List<Task>> listings = List.of(List.of(listed), List.of(moved)).iterator();
    Store store = store(Map.of(
        "list", args -> listings.next(),
        "histories", args -> Map.of("t-1", history(1)),
        "history", args -> history(2),
        "get", args -> Optional.of(moved)));
    ExportPage page = ExportSource.of(store).page(null, 10);
    assertThat(page.tasks()).containsExactly(new TaskHistory(moved, history(2)));
    assertThat(listings.hasNext()).isFalse();
    assertThat(page.next()).isNull();
  }

  @Test
  void aTaskPurgedWhileItsPageIsReadIsLeftOutAndThePageFilledFromTheNext() {
    List<Task> listed = List.of(task("t-1", "a"), task("t-2", "a"), task("t-3", "a"));
    Task fourth = task("t-4", "a");
    Iterator<List<Task>> listings = List.of(listed, List.of(listed.get(0), listed.get(2)),
        List.of(fourth), List.of(fourth)).iterator();
    Store store = store(Map.of(
        "list", args -> listings.next(),
        "histories", args -> Map.of("t-1", history(1), "t-3", history(2), "t-4", history(3)),
        "history", args -> {
          throw new TaskNotFoundException((String) args[0]);
        }));
    ExportPage page = ExportSource.of(store).page(null, 3);
    assertThat(page.tasks()).containsExactly(new TaskHistory(listed.get(0), history(1)),
        new TaskHistory(listed.get(2), history(2)), new TaskHistory(fourth, history(3)));
    assertThat(page.next()).as("a full listing, so more may follow").isEqualTo("t-4");
    assertThat(listings.hasNext()).isFalse();
  }

  @Test
  void aPageStopsTakingTasksOnceItsContextsAreLarge() {
    Store store = new InMemoryStore();
    List<TaskHistory> tasks = new ArrayList<>();
    String big = "{\"pad\":\"" + "x".repeat(300_000) + "\"}";
    for (int i = 0; i < 100; i++) {
      Task t = task(String.format("t-%03d", i), "a");
      tasks.add(new TaskHistory(new Task(t.id(), t.machine(), t.version(), t.state(), t.status(),
          big, 0, List.of(), T0, T0, null, T0, null, null), history(1)));
    }
    store.register("m", "name: m\n", T0);
    store.restore(tasks);
    // 20 tasks at a time: 6 MiB of contexts after the first 20, past the 4 MiB a page holds.
    ExportPage first = ExportSource.of(store).page(null, 500);
    assertThat(first.tasks()).hasSize(20);
    assertThat(first.next()).isEqualTo("t-019");
  }

  /** A store that answers the named calls, and fails the test on any other. */
  private static Store store(Map<String, Function<Object[], Object>> answers) {
    return (Store) Proxy.newProxyInstance(Store.class.getClassLoader(),
        new Class<?>[] {Store.class}, (proxy, method, args) -> {
          Function<Object[], Object> answer = answers.get(method.getName());
          if (answer == null) {
            throw new AssertionError("unexpected call " + method.getName());
          }
          return answer.apply(args);
        });
  }

  private static Task task(String id, String state) {
    return new Task(id, "m", "1", state, TaskStatus.RUNNABLE, "{}", 0, List.of(), T0, T0,
        null, T0, null, null);
  }

  private static List<Transition> history(int entries) {
    List<Transition> history = new ArrayList<>();
    for (int k = 0; k < entries; k++) {
      history.add(new Transition(T0.plusNanos(k), "s" + k, "e", "s" + (k + 1), k, k, "r", ""));
    }
    return history;
  }
}

package dev.fsm.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.OperatorListener;
import dev.fsm.store.Store;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Command;
import dev.fsm.task.Task;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Lists of tasks with large contexts: read a few at a time, so that a runner serving them keeps
 * its heap; without contexts for views that show none, and refused past what one list carries.
 */
class ListContextsTest {

  private static final String BIG = """
      machine: big
      states:
        hold:
          on: {go: done}
        done: {final: completed}
      """;

  /** A context of about 900 KiB, near the 1 MiB a context may hold. */
  private static final String LARGE = "{\"pad\":\"" + "x".repeat(900 * 1024) + "\"}";

  @TempDir Path dir;
  private StoreOperations ops;

  @BeforeEach
  void setUp() {
    InMemoryStore store = new InMemoryStore();
    ops = new StoreOperations(store, new MachineLibrary(store, dir), Clock.systemUTC(),
        "user:test", OperatorListener.NONE, true);
    List<NewTask> tasks = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      tasks.add(new NewTask(String.format("t%03d", i), LARGE, null));
    }
    ops.start(new MachineSource("big", dir.resolve("big.yaml"), BIG), tasks);
  }

  @Test
  void aListWithoutContextsHasEveryTaskWithAnEmptyContext() {
    List<Task> listed = ops.list(query(1000), false);
    assertThat(listed).hasSize(100).allSatisfy(t -> assertThat(t.context()).isEqualTo("{}"));
    assertThat(listed.get(99).id()).isEqualTo("t099");
    assertThat(ops.list(query(3), true)).extracting(Task::context).containsOnly(LARGE);
  }

  @Test
  void aListWithMoreContextThanOneListCarriesIsRefusedSayingWhatToDo() {
    assertThatThrownBy(() -> ops.list(query(1000))).isExactlyInstanceOf(FsmException.class)
        .hasMessage("the 19 tasks listed so far hold more than 16 MiB of contexts, more than one"
            + " list carries; list fewer (--limit), or read them all with `fsm store export`");
    assertThat(ops.list(query(18))).hasSize(18);
  }

  @Test
  void aBulkCommandReachesEveryTaskWhateverTheirContexts() {
    BulkSendReport paused = ops.sendAll(new TaskSelector("big", Optional.empty(), Set.of()),
        Command.PAUSE, null, "hold", false);
    assertThat(paused.matched()).isEqualTo(100);
    assertThat(paused.changed()).hasSize(100);
    assertThat(ops.get("t042").orElseThrow().context()).as("a command keeps the context")
        .isEqualTo(LARGE);
  }

  @Test
  void byUpdatedTimeTheStoreIsReadOnceAsNoIndexKeepsThatOrder() {
    InMemoryStore memory = new InMemoryStore();
    int[] lists = {0};
    Store counting = (Store) java.lang.reflect.Proxy.newProxyInstance(
        Store.class.getClassLoader(), new Class<?>[] {Store.class}, (proxy, method, args) -> {
          if (method.getName().equals("list")) {
            lists[0]++;
          }
          try {
            return method.invoke(memory, args);
          } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
          }
        });
    StoreOperations counted = new StoreOperations(counting, new MachineLibrary(counting, dir),
        Clock.systemUTC(), "user:test", OperatorListener.NONE, true);
    List<NewTask> tasks = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      tasks.add(new NewTask(String.format("u%03d", i), "{}", null));
    }
    counted.start(new MachineSource("big", dir.resolve("big.yaml"), BIG), tasks);
    lists[0] = 0;
    TaskQuery byUpdated = new TaskQuery(Optional.of("big"), Optional.empty(), Set.of(),
        Optional.empty(), 1000, TaskQuery.Order.DESCENDING, TaskQuery.Sort.UPDATED);
    assertThat(counted.list(byUpdated, false)).hasSize(100);
    assertThat(lists[0]).as("each read scans every task: one read, not one per 32").isOne();
    lists[0] = 0;
    assertThat(counted.list(query(100), false)).hasSize(100);
    assertThat(lists[0]).as("in id order, 32 at a time").isEqualTo(4);
  }

  private static TaskQuery query(int limit) {
    return new TaskQuery(Optional.of("big"), Optional.empty(), Set.of(), Optional.empty(), limit,
        TaskQuery.Order.ASCENDING, TaskQuery.Sort.ID);
  }
}

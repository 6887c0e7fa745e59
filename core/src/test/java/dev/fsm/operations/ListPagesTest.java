package dev.fsm.operations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.OperatorListener;
import dev.fsm.store.Store;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.memory.InMemoryStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
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
 * Lists of any length read a page at a time: no read asks the store (or a runner) for more than
 * a page, and a task that changes while the pages are read is neither skipped nor given twice.
 */
class ListPagesTest {

  private static final String HOLD = """
      machine: hold
      states:
        wait:
          on: {go: done}
        done: {final: completed}
      """;
  private static final int TASKS = 4_500;

  @TempDir Path dir;

  private final List<Integer> reads = new ArrayList<>();
  private StoreOperations ops;

  @BeforeEach
  void fourThousandFiveHundredTasks() {
    InMemoryStore memory = new InMemoryStore();
    Store counting = (Store) Proxy.newProxyInstance(Store.class.getClassLoader(),
        new Class<?>[] {Store.class}, (proxy, method, args) -> {
          if (method.getName().equals("list")) {
            reads.add(((TaskQuery) args[0]).limit());
          }
          try {
            return method.invoke(memory, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
    ops = new StoreOperations(counting, new MachineLibrary(counting, dir), Clock.systemUTC(),
        "user:test", OperatorListener.NONE, true);
    List<NewTask> tasks = new ArrayList<>();
    for (int i = 0; i < TASKS; i++) {
      tasks.add(new NewTask(String.format("t%05d", i), "{}", null));
    }
    ops.start(new MachineSource("hold", dir.resolve("hold.yaml"), HOLD), tasks);
    reads.clear();
  }

  @Test
  void aLongListIsReadAPageAtATimeInOrder() {
    List<String> ids = new ArrayList<>();
    long given = ListPages.each(ops, query(TaskQuery.Sort.CREATED, Integer.MAX_VALUE), false,
        t -> ids.add(t.id()));

    assertThat(given).isEqualTo(TASKS);
    assertThat(ids).hasSize(TASKS).doesNotHaveDuplicates().isSorted();
    assertThat(reads).isNotEmpty().allSatisfy(limit -> assertThat(limit).isLessThanOrEqualTo(32));
  }

  @Test
  void byUpdatedTimeEachPageIsOneReadOfAtMostAPage() {
    long given = ListPages.each(ops, query(TaskQuery.Sort.UPDATED, Integer.MAX_VALUE), false,
        t -> true);

    assertThat(given).isEqualTo(TASKS);
    assertThat(reads).containsExactly(ListPages.UPDATED_PAGE);
  }

  @Test
  void theLimitAndAFalseAnswerEndTheList() {
    assertThat(ListPages.each(ops, query(TaskQuery.Sort.ID, 2_001), false, t -> true))
        .isEqualTo(2_001);
    int[] seen = {0};
    assertThat(ListPages.each(ops, query(TaskQuery.Sort.ID, 5_000), false, t -> ++seen[0] < 10))
        .isEqualTo(10);
  }

  @Test
  void aTaskThatChangesWhileListedByUpdatedTimeIsGivenOnceAndNoneIsSkipped() {
    List<String> ids = new ArrayList<>();
    // Pages of 3, and the last task of each page signalled as it is given: it enters a new
    // state, moves to the end of the order, and is the next page's cursor.
    long given = ListPages.each(ops, query(TaskQuery.Sort.UPDATED, 300), false, 3, t -> {
      ids.add(t.id());
      if (ids.size() % 3 == 0) {
        ops.signal(t.id(), "go", null);
      }
      return true;
    });

    assertThat(given).isEqualTo(300);
    assertThat(ids).doesNotHaveDuplicates().startsWith("t00000", "t00001", "t00002", "t00003");
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      expected.add(String.format("t%05d", i));
    }
    assertThat(ids).as("none skipped").containsExactlyElementsOf(expected);
  }

  @Test
  void newestFirstATaskThatChangesWhileListedIsListedAfterTheRestNotSkipped() {
    List<String> ids = new ArrayList<>();
    TaskQuery newestFirst = new TaskQuery(Optional.of("hold"), Optional.empty(), Set.of(),
        Optional.empty(), Integer.MAX_VALUE, TaskQuery.Order.DESCENDING, TaskQuery.Sort.UPDATED);
    // Pages of 30; as each page is given, a task not listed yet (the oldest) changes, which
    // moves it ahead of every page already read.
    int[] oldest = {0};
    long given = ListPages.each(ops, newestFirst, false, 30, t -> {
      ids.add(t.id());
      if (ids.size() % 30 == 0 && oldest[0] < 100) {
        ops.signal(String.format("t%05d", oldest[0]++), "go", null);
      }
      return true;
    });

    assertThat(given).isEqualTo(TASKS);
    assertThat(ids).doesNotHaveDuplicates().hasSize(TASKS);
    List<String> changed = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      changed.add(String.format("t%05d", i));
    }
    assertThat(ids.subList(TASKS - 100, TASKS)).as("the tasks that changed, after the rest")
        .containsExactlyElementsOf(changed);
  }

  @Test
  void aRequestForMoreThanARunnerGivesAtOnceIsRefused() {
    ListPages.checkRequest(query(TaskQuery.Sort.ID, ListPages.MAX_REQUEST));
    assertThatThrownBy(() -> ListPages.checkRequest(query(TaskQuery.Sort.ID, 1_000_001)))
        .isExactlyInstanceOf(FsmException.class)
        .hasMessageContaining("at most 50000 tasks at once, and this one asks for 1000001");
  }

  private static TaskQuery query(TaskQuery.Sort sort, int limit) {
    return new TaskQuery(Optional.of("hold"), Optional.empty(), Set.of(), Optional.empty(), limit,
        TaskQuery.Order.ASCENDING, sort);
  }
}

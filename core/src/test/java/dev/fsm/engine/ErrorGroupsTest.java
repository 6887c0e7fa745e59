package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.store.ErrorEntry;
import dev.fsm.store.ErrorQuery;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Grouping by machine, state and masked message; counts, tasks, times, example and order. */
class ErrorGroupsTest {

  private static final Instant T0 = Instant.parse("2026-11-25T00:00:00Z");

  private static ErrorEntry error(String task, String machine, String state, int second,
      String message) {
    return new ErrorEntry(task, machine, new Transition(T0.plusSeconds(second), state, "error",
        state, 5, 1, "runner:1@h/w1", message));
  }

  @Test
  void groupsByMaskedMessageMostFrequentFirst() {
    ErrorGroups groups = new ErrorGroups();
    groups.accept(error("t1", "order", "pay", 10,
        "connection to 10.0.0.7:5432 refused after 3 ms"));
    groups.accept(error("t2", "order", "pay", 30,
        "connection to 10.0.0.9:5432 refused after 15 ms"));
    groups.accept(error("t1", "order", "pay", 20,
        "connection to 10.0.0.8:5432 refused after 9 ms"));
    groups.accept(error("t3", "order", "ship", 5, "no label for /tmp/labels/3.pdf"));
    groups.accept(error("t4", "order", "ship", 6, "no label for /tmp/labels/4.pdf"));
    groups.accept(error("t5", "order", "pay", 40, "card declined"));

    ErrorReport report = groups.report(T0, 10);

    assertThat(report.errors()).isEqualTo(6);
    assertThat(report.groupCount()).isEqualTo(3);
    assertThat(report.since()).isEqualTo(T0);
    assertThat(report.groups()).containsExactly(
        new ErrorGroup("connection to <ip>:<n> refused after <n> ms", "order", "pay", 3, 2,
            T0.plusSeconds(10), T0.plusSeconds(30),
            "connection to 10.0.0.9:5432 refused after 15 ms", "t2"),
        new ErrorGroup("no label for <path>", "order", "ship", 2, 2, T0.plusSeconds(5),
            T0.plusSeconds(6), "no label for /tmp/labels/4.pdf", "t4"),
        new ErrorGroup("card declined", "order", "pay", 1, 1, T0.plusSeconds(40),
            T0.plusSeconds(40), "card declined", "t5"));
  }

  @Test
  void eachTasksOwnIdIsMaskedWhateverItsShape() {
    ErrorGroups groups = new ErrorGroups();
    for (String id : List.of("A1", "B2", "def", "inv_77", "x250")) {
      groups.accept(error(id, "m", "b", 1, "cannot process task " + id + ": upstream said no"));
    }
    groups.accept(error("A1", "m", "b", 2, "A10 is not A1's twin"));
    groups.accept(error("b", "m", "b", 3, "boom in b"));

    ErrorReport report = groups.report(T0, 10);

    assertThat(report.groups()).extracting(ErrorGroup::pattern).containsExactly(
        "cannot process task <id>: upstream said no", "boom in b", "A10 is not <id>'s twin");
    assertThat(report.groups().get(0).tasks()).isEqualTo(5);
  }

  @Test
  void theRetryPolicysDecisionAfterAMessageIsNotGroupedOn() {
    ErrorGroups groups = new ErrorGroups();
    groups.accept(error("t1", "m", "s", 1, "disk full; retry in 10m (1 of 8 errors in 4h)"));
    groups.accept(error("t1", "m", "s", 2, "disk full; retry in 1h30m (7 of 8 errors in 4h)"));
    groups.accept(error("t1", "m", "s", 3, "disk full; failed: 8 of 8 errors in 4h"));
    groups.accept(error("t2", "m", "s", 4, "disk full; exhausted, to `review`: 3 of 3 errors"
        + " in 1h"));
    groups.accept(error("t3", "m", "s", 5, "disk full; retry in ten minutes"));

    assertThat(groups.report(T0, 10).groups()).extracting(g -> g.pattern() + " x" + g.count())
        .containsExactly("disk full x4", "disk full; retry in ten minutes x1");
  }

  @Test
  void theSameMessageInTwoStatesOrMachinesIsTwoGroups() {
    ErrorGroups groups = new ErrorGroups();
    groups.accept(error("t1", "order", "pay", 1, "timed out after 30s"));
    groups.accept(error("t2", "order", "ship", 2, "timed out after 30s"));
    groups.accept(error("t3", "refund", "pay", 3, "timed out after 30s"));

    assertThat(groups.report(T0, 10).groups()).extracting(g -> g.machine() + "/" + g.state())
        .containsExactly("refund/pay", "order/ship", "order/pay");
  }

  @Test
  void aLimitKeepsTheMostFrequentAndTheTotals() {
    ErrorGroups groups = new ErrorGroups();
    for (int i = 0; i < 5; i++) {
      for (int n = 0; n <= i; n++) {
        groups.accept(error("t" + n, "m", "s" + i, n, "boom"));
      }
    }
    ErrorReport report = groups.report(T0, 2);

    assertThat(report.groups()).extracting(ErrorGroup::state).containsExactly("s4", "s3");
    assertThat(report.groupCount()).isEqualTo(5);
    assertThat(report.errors()).isEqualTo(15);
  }

  @Test
  void aTieOnTimeTakesTheSmallerTaskIdAsTheExampleInAnyOrder() {
    ErrorGroups one = new ErrorGroups();
    one.accept(error("b", "m", "s", 1, "x 1"));
    one.accept(error("a", "m", "s", 1, "x 2"));
    ErrorGroups other = new ErrorGroups();
    other.accept(error("a", "m", "s", 1, "x 2"));
    other.accept(error("b", "m", "s", 1, "x 1"));

    assertThat(one.report(T0, 1)).isEqualTo(other.report(T0, 1));
    assertThat(one.report(T0, 1).groups().get(0).exampleTask()).isEqualTo("a");
  }

  @Test
  void computeReadsTheStoresErrorsSinceTheQuerysTime() {
    try (InMemoryStore store = new InMemoryStore()) {
      List<TaskHistory> tasks = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        Task t = new Task("t" + i, "order", "v1", "pay", TaskStatus.SLEEPING, "{}", 1, List.of(),
            T0, T0, T0, T0.plusSeconds(600), null);
        tasks.add(new TaskHistory(t, List.of(
            new Transition(T0.plusSeconds(i), "pay", "error", "pay", 7, 1, "runner:1@h/w1",
                "HTTP 503 from 10.1.1." + i + "; retry in 10m (1 of 8 errors in 4h)"),
            new Transition(T0.plusSeconds(i), "pay", "sleep", "pay", 0, 1, "user:ann", ""))));
      }
      store.restore(tasks);

      ErrorReport report = ErrorGroups.compute(store, new ErrorQuery(T0.plusSeconds(10),
          Optional.of("order"), Optional.empty()), 20);

      assertThat(report.errors()).isEqualTo(20);
      assertThat(report.groups()).singleElement().satisfies(g -> {
        assertThat(g.pattern()).isEqualTo(
            "HTTP <n> from <ip>");
        assertThat(g.tasks()).isEqualTo(20);
        assertThat(g.firstSeen()).isEqualTo(T0.plusSeconds(10));
        assertThat(g.exampleTask()).isEqualTo("t29");
      });
    }
  }
}

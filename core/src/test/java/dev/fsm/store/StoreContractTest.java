package dev.fsm.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.fsm.task.Change;
import dev.fsm.task.Command;
import dev.fsm.task.Commands;
import dev.fsm.task.Lease;
import dev.fsm.task.Pausing;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What every {@link Store} must do, whatever keeps the tasks. A store's test extends this class
 * and says how to open it (and, for a durable store, how to close and open it again). Time is a
 * fixed clock: every "now" is an explicit instant, nothing sleeps.
 */
public abstract class StoreContractTest {

  private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final String ORDER_V1 = "name: order\nstates:\n  ship: {action: ship.sh}\n";
  private static final String ORDER_V2 = "name: order\nstates:\n  ship: {action: ship2.sh}\n";

  @TempDir Path folder;

  private Store store;

  /** A new, empty store kept in {@code folder} (which a store kept in memory ignores). */
  protected abstract Store openStore(Path folder);

  /**
   * The store as a new process would find it: a durable store closes {@code old} and opens the
   * folder again. A store kept in memory returns {@code old}.
   */
  protected Store reopen(Store old, Path folder) {
    return old;
  }

  /**
   * True for a store many runners share at once ({@code Ownership.SHARED}): its claims count
   * the leases every owner holds against the caps.
   */
  protected boolean sharedByManyRunners() {
    return false;
  }

  @BeforeEach
  void openTheStore() {
    store = openStore(folder);
  }

  @AfterEach
  void closeTheStore() {
    if (store != null) {
      store.close();
    }
  }

  private void reopen() {
    store = reopen(store, folder);
  }


  @Test
  void aCreatedTaskReadsBackAsGivenWithNoHistory() {
    Task t = new Task("t1", "order", "abc123abc123", "ship", TaskStatus.RUNNABLE,
        "{\"to\":\"Zoë \\\"Q\\\" Ünal\",\"n\":[1,2]}", 3,
        List.of(new TaskError(T0.minusSeconds(60), "carrier down"),
            new TaskError(T0.minusSeconds(30), "still down")),
        T0.minusSeconds(3600), T0.minusSeconds(600), null, T0, null);
    store.create(List.of(t));
    reopen();

    assertThat(store.get("t1")).contains(t);
    assertThat(store.history("t1")).isEmpty();
    assertThat(store.get("t2")).isEmpty();
  }

  @Test
  void aThousandTasksAreCreatedAtOnceAndClaimedOldestDueFirst() {
    List<Task> batch = new ArrayList<>();
    for (int i = 0; i < 1000; i++) {
      // 7919 is prime, so the due times are a permutation of 0..999 ms, unrelated to id order.
      batch.add(runnable(String.format("bulk-%04d", i), T0.plusMillis((i * 7919L) % 1000)));
    }
    store.create(batch);
    reopen();

    assertThat(store.list(TaskQuery.all(1000))).containsExactlyElementsOf(batch);
    assertThat(store.get("bulk-0500")).contains(batch.get(500));
    List<Task> claimed = store.claim("r1", 1000, T0.plusSeconds(1), LEASE);
    assertThat(claimed).hasSize(1000);
    assertThat(claimed).extracting(Task::due).isSorted();
    assertThat(claimed).extracting(Task::due).doesNotHaveDuplicates();
  }

  @Test
  void aTakenIdRefusesTheWholeBatch() {
    Task a = runnable("a", T0);
    store.create(List.of(a));

    assertThatThrownBy(() -> store.create(List.of(runnable("b", T0), runnable("a", T0),
        runnable("c", T0)))).isInstanceOf(TaskExistsException.class).hasMessageContaining("`a`");
    // The same id twice in one batch is taken by the batch itself.
    assertThatThrownBy(() -> store.create(List.of(runnable("d", T0), runnable("d", T0))))
        .isInstanceOf(TaskExistsException.class).hasMessageContaining("`d`");
    reopen();

    assertThat(store.get("a")).contains(a);
    assertThat(store.get("b")).isEmpty();
    assertThat(store.get("c")).isEmpty();
    assertThat(store.get("d")).isEmpty();
    assertThat(store.list(TaskQuery.all(10))).containsExactly(a);
    assertThat(store.claim("r1", 10, T0, LEASE)).extracting(Task::id).containsExactly("a");
  }


  @Test
  void claimTakesOnlyDueTasksOldestFirstAtMostMaxAndLeasesThem() {
    Map<String, Task> byId = new HashMap<>();
    for (Task t : List.of(runnable("t-a", T0.plusSeconds(20)), runnable("t-b", T0.minusSeconds(10)),
        runnable("t-c", T0), runnable("t-d", T0.minusSeconds(30)),
        runnable("t-e", T0.plusSeconds(5)), runnable("t-f", T0.minusSeconds(20)))) {
      byId.put(t.id(), t);
    }
    store.create(new ArrayList<>(byId.values()));

    List<Task> first = store.claim("r1", 3, T0, LEASE);
    Lease r1 = new Lease("r1", T0.plus(LEASE));
    assertThat(first).containsExactly(leased(byId.get("t-d"), r1), leased(byId.get("t-f"), r1),
        leased(byId.get("t-b"), r1));
    assertThat(store.get("t-d")).contains(leased(byId.get("t-d"), r1));

    assertThat(store.claim("r2", 10, T0, LEASE)).as("not due yet, or leased")
        .extracting(Task::id).containsExactly("t-c");
    assertThat(store.claim("r3", 10, T0, LEASE)).isEmpty();
    assertThat(store.claim("r3", 0, T0.plusSeconds(20), LEASE)).isEmpty();
    assertThat(store.claim("r3", 10, T0.plusSeconds(20), LEASE)).as("due at now is due")
        .extracting(Task::id).containsExactly("t-e", "t-a");
    assertThat(store.get("t-a").orElseThrow().lease())
        .isEqualTo(new Lease("r3", T0.plusSeconds(20).plus(LEASE)));
  }

  @Test
  void aCrashedRunnersTasksAreClaimableAgainWhenItsLeaseExpires() {
    store.create(List.of(runnable("t1", T0), runnable("t2", T0.plusSeconds(1))));
    assertThat(store.claim("r1", 10, T0.plusSeconds(1), LEASE)).hasSize(2);

    // r1 dies here without a word.
    Instant end = T0.plusSeconds(1).plus(LEASE);
    assertThat(store.claim("r2", 10, end.minusMillis(1), LEASE)).isEmpty();
    List<Task> again = store.claim("r2", 10, end, LEASE);
    assertThat(again).extracting(Task::id).as("still oldest due first").containsExactly("t1", "t2");
    assertThat(again).extracting(Task::lease).containsOnly(new Lease("r2", end.plus(LEASE)));

    Task t1 = again.get(0);
    assertThatThrownBy(() -> store.record("r1", moved(t1, "pack", end.plusSeconds(1), "r1", null)))
        .isInstanceOf(LeaseLostException.class);
    assertThat(store.renew("r1", List.of("t1", "t2"), end.plusSeconds(60)))
        .containsExactlyInAnyOrder("t1", "t2");
    Change done = moved(t1, "pack", end.plusSeconds(2), "r2", null);
    store.record("r2", done);
    assertThat(store.get("t1")).contains(done.next());
    assertThat(store.history("t1")).containsExactly(done.entry());
  }

  @Test
  void sleepingTasksWakeAtTheirTimeAndTasksInFaultAreClaimed() {
    Task sleeper = task("sleeper", "order", "ship", TaskStatus.SLEEPING, T0.plusSeconds(600));
    Task fault = task("fault", "order", "ship", TaskStatus.FAULT, T0);
    store.create(List.of(sleeper, fault));

    assertThat(store.claim("r1", 10, T0, Duration.ofHours(1))).extracting(Task::id)
        .containsExactly("fault");
    assertThat(store.claim("r1", 10, T0.plusSeconds(599), LEASE)).isEmpty();
    assertThat(store.claim("r1", 10, T0.plusSeconds(600), LEASE)).extracting(Task::id)
        .containsExactly("sleeper");
  }

  @Test
  void pausedAndTerminalTasksAreNeverClaimed() {
    // Only the first is a snapshot the engine makes; the others carry a due time anyway, to show
    // that a store goes by status as Task.claimableAt does, not by due time alone.
    store.create(List.of(task("paused", "order", "ship", TaskStatus.PAUSED, null),
        task("paused-due", "order", "ship", TaskStatus.PAUSED, T0),
        task("completed", "order", "done", TaskStatus.COMPLETED, T0),
        task("failed", "order", "ship", TaskStatus.FAILED, T0),
        task("killed", "order", "ship", TaskStatus.KILLED, T0)));

    assertThat(store.claim("r1", 10, T0.plus(Duration.ofDays(365)), LEASE)).isEmpty();
    store.create(List.of(runnable("runnable", T0)));
    assertThat(store.claim("r1", 10, T0.plus(Duration.ofDays(365)), LEASE)).extracting(Task::id)
        .containsExactly("runnable");
  }


  @Test
  void nextDueIsTheFirstDueTimeOrLeaseEndAndEmptyWhenNothingIsScheduled() {
    assertThat(store.nextDue()).isEmpty();
    store.create(List.of(task("waiting", "order", "sign", TaskStatus.RUNNABLE, null),
        task("paused", "order", "ship", TaskStatus.PAUSED, null),
        task("done", "order", "done", TaskStatus.COMPLETED, null)));
    assertThat(store.nextDue()).as("nothing scheduled").isEmpty();

    store.create(List.of(runnable("later", T0.plusSeconds(60)),
        task("sleeper", "order", "ship", TaskStatus.SLEEPING, T0.plusSeconds(30))));
    assertThat(store.nextDue()).contains(T0.plusSeconds(30));

    store.create(List.of(runnable("now", T0)));
    assertThat(store.nextDue()).contains(T0);
    assertThat(store.claim("r1", 1, T0, LEASE)).extracting(Task::id).containsExactly("now");
    assertThat(store.nextDue()).as("the lease's end (T0 + 30 s) and the sleeper's time")
        .contains(T0.plus(LEASE));
    Task now = store.get("now").orElseThrow();
    store.record("r1", moved(now, "pack", T0.plusSeconds(1), "r1", null));
    assertThat(store.nextDue()).as("recorded: runnable again at once")
        .contains(T0.plusSeconds(1));
    reopen();
    assertThat(store.nextDue()).contains(T0.plusSeconds(1));
  }

  @Test
  void renewExtendsHeldLeasesAndReportsTheOnesLost() {
    store.create(List.of(runnable("t1", T0), runnable("t2", T0), runnable("t3", T0)));
    assertThat(store.claim("r1", 10, T0, LEASE)).hasSize(3);
    store.update("t2", t -> Commands.apply(t, Command.PAUSE, by("ann"), T0.plusSeconds(5)));

    Instant until = T0.plusSeconds(90);
    assertThat(store.renew("r1", List.of("t1", "t2", "t3", "missing"), until))
        .containsExactlyInAnyOrder("t2", "missing");
    assertThat(store.get("t1").orElseThrow().lease()).isEqualTo(new Lease("r1", until));
    assertThat(store.get("t3").orElseThrow().lease()).isEqualTo(new Lease("r1", until));
    assertThat(store.get("t2").orElseThrow().lease()).isNull();

    assertThat(store.renew("r2", List.of("t1"), until.plusSeconds(60))).containsExactly("t1");
    assertThat(store.get("t1").orElseThrow().lease()).isEqualTo(new Lease("r1", until));
    assertThat(store.claim("r2", 10, until.minusMillis(1), LEASE)).isEmpty();
    assertThat(store.claim("r2", 10, until, LEASE)).extracting(Task::id)
        .containsExactlyInAnyOrder("t1", "t3");
    assertThat(store.renew("r1", List.of("t1", "t3"), until.plusSeconds(60)))
        .containsExactlyInAnyOrder("t1", "t3");
    assertThat(store.renew("r1", List.of(), until)).isEmpty();
  }


  @Test
  void anEndedLeaseNobodyClaimedIsStillItsOwnersToRenew() {
    store.create(List.of(runnable("t1", T0)));
    assertThat(store.claim("r1", 1, T0, LEASE)).hasSize(1);
    Instant end = T0.plus(LEASE);
    assertThat(store.claim("r2", 0, end.plusSeconds(1), LEASE)).as("a claim of none").isEmpty();
    assertThat(store.nextDue()).as("claimable again, at its due time").contains(T0);

    Instant until = end.plusSeconds(60);
    assertThat(store.renew("r1", List.of("t1"), until)).isEmpty();
    assertThat(store.get("t1").orElseThrow().lease()).isEqualTo(new Lease("r1", until));
    assertThat(store.nextDue()).as("held again until the renewed end").contains(until);
    assertThat(store.claim("r2", 10, until.minusMillis(1), LEASE)).isEmpty();
    assertThat(store.claim("r2", 10, until, LEASE)).extracting(Task::id).containsExactly("t1");
  }

  @Test
  void historiesReadsManyTasksHistoriesAtOnce() {
    store.create(List.of(runnable("t1", T0), runnable("t2", T0)));
    Task t1 = store.claim("r1", 1, T0, LEASE).get(0);
    Change first = moved(t1, "pack", T0.plusSeconds(1), "r1/w1", new Lease("r1", T0.plus(LEASE)));
    store.record("r1", first);
    Change second = moved(first.next(), "bill", T0.plusSeconds(2), "r1/w1", null);
    store.record("r1", second);
    Map<String, List<Transition>> read = store.histories(List.of("t1", "t2", "nobody"));
    assertThat(read.get("t1")).containsExactly(first.entry(), second.entry());
    assertThat(read.get("t2")).isEmpty();
    assertThat(read.getOrDefault("nobody", List.of())).isEmpty();
  }

  @Test
  void recordUnderAHeldLeaseStoresTheSnapshotAndItsHistoryEntry() {
    store.create(List.of(runnable("t1", T0)));
    Task claimed = store.claim("r1", 1, T0, LEASE).get(0);

    Change next = moved(claimed, "pack", T0.plusSeconds(10), "r1/w1",
        new Lease("r1", T0.plus(LEASE)));
    store.record("r1", next);
    assertThat(store.get("t1")).contains(next.next());
    assertThat(store.claim("r2", 10, T0.plusSeconds(10), LEASE)).as("still r1's").isEmpty();

    Change last = moved(next.next(), "bill", T0.plusSeconds(20), "r1/w1", null);
    store.record("r1", last);
    reopen();

    assertThat(store.get("t1")).contains(last.next());
    assertThat(store.history("t1")).containsExactly(next.entry(), last.entry());
    assertThat(store.claim("r2", 10, T0.plusSeconds(20), LEASE)).as("handed back")
        .extracting(Task::state).containsExactly("bill");
  }

  @Test
  void recordAfterAPauseDroppedTheLeaseIsRefusedAndChangesNothing() {
    store.create(List.of(runnable("t1", T0)));
    Task claimed = store.claim("r1", 1, T0, LEASE).get(0);
    Task paused = store.update("t1",
        t -> Commands.apply(t, Command.PAUSE, by("ann"), T0.plusSeconds(5)));

    assertThatThrownBy(() -> store.record("r1", moved(claimed, "pack", T0.plusSeconds(10), "r1",
        null))).isInstanceOf(LeaseLostException.class).hasMessageContaining("`t1`");
    reopen();

    assertThat(store.get("t1")).contains(paused);
    assertThat(store.history("t1")).extracting(Transition::event).containsExactly("pause");
    assertThat(store.claim("r2", 10, T0.plusSeconds(10), LEASE)).isEmpty();
  }

  @Test
  void recordIsRefusedUnlessTheOwnersLeaseHoldsAtTheChangesTime() {
    store.create(List.of(runnable("t1", T0)));
    Task claimed = store.claim("r1", 1, T0, LEASE).get(0);

    assertThatThrownBy(() -> store.record("r2", moved(claimed, "pack", T0.plusSeconds(1), "r2",
        null))).as("another runner").isInstanceOf(LeaseLostException.class);
    assertThatThrownBy(() -> store.record("r1", moved(claimed, "pack", T0.plus(LEASE), "r1",
        null))).as("lease over").isInstanceOf(LeaseLostException.class);
    assertThat(store.get("t1")).contains(claimed);
    assertThat(store.history("t1")).isEmpty();

    Change inTime = moved(claimed, "pack", T0.plus(LEASE).minusMillis(1), "r1", null);
    store.record("r1", inTime);
    assertThat(store.get("t1")).contains(inTime.next());
  }


  @Test
  void recordAllStoresEveryHeldOutcomeAndNamesTheOnesItCouldNot() {
    List<Task> batch = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      batch.add(runnable("t" + i, T0));
    }
    store.create(batch);
    List<Task> claimed = store.claim("r1", 5, T0, LEASE);
    store.update("t3", t -> Commands.apply(t, Command.PAUSE, by("ann"), T0.plusSeconds(1)));
    List<Change> outcomes = new ArrayList<>();
    for (Task t : claimed) {
      Lease keep = t.id().equals("t0") ? new Lease("r1", T0.plus(LEASE)) : null;
      outcomes.add(moved(t, "pack", T0.plusSeconds(2), "r1/w1", keep));
    }
    Change second = moved(outcomes.get(0).next(), "bill", T0.plusSeconds(3), "r1/w1", null);
    outcomes.add(second);
    outcomes.add(moved(runnable("ghost", T0), "pack", T0.plusSeconds(2), "r1/w1", null));

    assertThat(store.recordAll("r1", outcomes)).as("paused, so no longer r1's; never created")
        .containsExactly("t3", "ghost");
    assertThat(store.recordAll("r1", List.of())).isEmpty();
    reopen();

    assertThat(store.get("t0")).contains(second.next());
    assertThat(store.history("t0")).containsExactly(outcomes.get(0).entry(), second.entry());
    for (String id : List.of("t1", "t2", "t4")) {
      assertThat(store.get(id)).get().extracting(Task::state).isEqualTo("pack");
      assertThat(store.history(id)).hasSize(1);
    }
    assertThat(store.get("t3")).get().extracting(Task::status).isEqualTo(TaskStatus.PAUSED);
    assertThat(store.get("ghost")).isEmpty();
    assertThat(store.recordAll("r2", List.of(moved(second.next(), "ship", T0.plusSeconds(4),
        "r2", null)))).as("never r2's").containsExactly("t0");
    assertThat(store.history("t0")).hasSize(2);
  }

  @Test
  void updateAppliesOperatorCommandsToTheCurrentTask() {
    store.create(List.of(runnable("t1", T0)));
    AtomicReference<Task> seen = new AtomicReference<>();

    Task paused = store.update("t1", t -> {
      seen.set(t);
      return Commands.apply(t, Command.PAUSE, by("ann"), T0.plusSeconds(1));
    });
    assertThat(seen.get()).isEqualTo(runnable("t1", T0));
    assertThat(paused.status()).isEqualTo(TaskStatus.PAUSED);
    assertThat(store.get("t1")).contains(paused);
    assertThat(store.claim("r1", 10, T0.plus(Duration.ofDays(1)), LEASE)).isEmpty();

    Task running = store.update("t1",
        t -> Commands.apply(t, Command.RUN, by("ann"), T0.plusSeconds(2)));
    assertThat(running.status()).isEqualTo(TaskStatus.RUNNABLE);
    assertThat(running.due()).isEqualTo(T0.plusSeconds(2));

    Instant wake = T0.plusSeconds(600);
    Task sleeping = store.update("t1", t -> Commands.apply(t, Command.SLEEP,
        new Commands.Request(wake, "wait for stock", "bob"), T0.plusSeconds(3)));
    assertThat(sleeping.status()).isEqualTo(TaskStatus.SLEEPING);
    reopen();

    assertThat(store.get("t1")).contains(sleeping);
    assertThat(store.claim("r1", 10, wake.minusMillis(1), LEASE)).isEmpty();
    assertThat(store.claim("r1", 10, wake, LEASE)).extracting(Task::id).containsExactly("t1");

    Task killed = store.update("t1", t -> Commands.apply(t, Command.KILL, by("ann"),
        wake.plusSeconds(1)));
    assertThat(killed.status()).isEqualTo(TaskStatus.KILLED);
    assertThat(killed.lease()).as("a kill stops the runner").isNull();
    assertThat(store.renew("r1", List.of("t1"), wake.plusSeconds(60))).containsExactly("t1");
    assertThat(store.claim("r2", 10, wake.plus(Duration.ofDays(1)), LEASE)).isEmpty();
    reopen();

    assertThat(store.get("t1")).contains(killed);
    assertThat(store.history("t1")).containsExactly(
        new Transition(T0.plusSeconds(1), "ship", "pause", "ship", 0, 0, "ann", ""),
        new Transition(T0.plusSeconds(2), "ship", "run", "ship", 0, 0, "ann", ""),
        new Transition(T0.plusSeconds(3), "ship", "sleep", "ship", 0, 0, "bob", "wait for stock"),
        new Transition(wake.plusSeconds(1), "ship", "kill", "ship", 0, 0, "ann", ""));
  }

  @Test
  void anEndedTaskMayBeUpdatedBackIntoTheQueueAndCountsMoveWithIt() {
    store.create(List.of(task("failed", "order", "ship", TaskStatus.FAILED, null),
        task("killed", "order", "ship", TaskStatus.KILLED, null)));
    assertThat(store.nextDue()).isEmpty();

    Task redriven = store.update("failed", t -> Commands.apply(t, Command.REDRIVE,
        new Commands.Request(null, "db back", "ann"), T0.plusSeconds(5)));
    store.update("killed", t -> Commands.apply(t, Command.REDRIVE,
        new Commands.Request(null, "", "ann", "pack"), T0.plusSeconds(6)));
    reopen();

    assertThat(store.get("failed")).contains(redriven);
    assertThat(redriven.status()).isEqualTo(TaskStatus.RUNNABLE);
    assertThat(store.list(query("order", "pack", TaskStatus.RUNNABLE, null, 10)))
        .extracting(Task::id).containsExactly("killed");
    assertThat(ids(query("order", null, TaskStatus.FAILED, null, 10))).isEmpty();
    assertThat(store.claim("r1", 10, T0.plusSeconds(6), LEASE)).extracting(Task::id)
        .containsExactly("failed", "killed");
    assertThat(store.history("failed")).containsExactly(new Transition(T0.plusSeconds(5), "ship",
        "redrive", "ship", 0, 0, "ann", "db back"));
  }

  @Test
  void aRefusedCommandReachesTheCallerAndLeavesTheTaskAsItWas() {
    store.create(List.of(runnable("t1", T0), runnable("t2", T0)));
    Task killed = store.update("t1", t -> Commands.apply(t, Command.KILL, by("ann"), T0));
    Task paused = store.update("t2", t -> Commands.apply(t, Command.PAUSE, by("ann"), T0));

    assertThatThrownBy(() -> store.update("t1",
        t -> Commands.apply(t, Command.RUN, by("ann"), T0.plusSeconds(1))))
        .isExactlyInstanceOf(Commands.Refused.class)
        .hasMessage("task `t1`: `run` is not allowed while the task is killed, which is final;"
            + " allowed now: redrive");
    assertThatThrownBy(() -> store.update("t2",
        t -> Commands.apply(t, Command.COMPLETE, by("ann"), T0.plusSeconds(1))))
        .isExactlyInstanceOf(Commands.Refused.class)
        .hasMessage("task `t2`: `complete` is not allowed while the task is paused; allowed now:"
            + " run, pause, sleep, kill, checkpoint, release");
    assertThatThrownBy(() -> store.update("t2", t -> {
      throw new IllegalStateException("the function broke");
    })).isInstanceOf(IllegalStateException.class).hasMessage("the function broke");
    reopen();

    assertThat(store.get("t1")).contains(killed);
    assertThat(store.get("t2")).contains(paused);
    assertThat(store.history("t1")).extracting(Transition::event).containsExactly("kill");
    assertThat(store.history("t2")).extracting(Transition::event).containsExactly("pause");
  }

  @Test
  void unknownIdsAreNotFound() {
    store.create(List.of(runnable("t1", T0)));
    AtomicInteger calls = new AtomicInteger();

    assertThatThrownBy(() -> store.update("nope", t -> {
      calls.incrementAndGet();
      return Commands.apply(t, Command.PAUSE, by("ann"), T0);
    })).isInstanceOf(TaskNotFoundException.class).hasMessageContaining("`nope`");
    assertThat(calls).hasValue(0);
    assertThatThrownBy(() -> store.history("nope")).isInstanceOf(TaskNotFoundException.class)
        .hasMessageContaining("`nope`");
    assertThat(store.get("nope")).isEmpty();
    assertThat(store.get("t")).as("no prefix matching").isEmpty();
  }

  @Test
  void concurrentUpdatesOfOneTaskAreEachAppliedOnce() throws Exception {
    concurrentUpdates(false);
  }

  /**
   * As an operator's command reads the task's machine from the store the first time a process
   * needs it: a read inside the update must not end the update's hold on the task
   * ({@code PgStoreTest} races two instances, as two processes, the same way).
   */
  @Test
  void concurrentUpdatesThatReadTheStoreMeanwhileAreEachAppliedOnce() throws Exception {
    store.register("order", ORDER_V1, T0);
    concurrentUpdates(true);
  }

  private void concurrentUpdates(boolean readMeanwhile) throws Exception {
    store.create(List.of(runnable("t1", T0)));
    int threads = 4;
    int each = readMeanwhile ? 25 : 100;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < threads; w++) {
        String by = "op" + w;
        done.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < each; i++) {
            store.update("t1", t -> {
              if (readMeanwhile) {
                assertThat(store.versions("order")).hasSize(1);
              }
              return checkpointCountingAttempts(t, by);
            });
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(store.get("t1").orElseThrow().attempt()).isEqualTo(threads * each);
    assertThat(store.history("t1")).extracting(Transition::attempt)
        .containsExactlyElementsOf(IntStream.range(0, threads * each).boxed().toList());
  }


  @Test
  void historyIsOldestFirstAcrossCommandsAndOutcomes() {
    store.create(List.of(runnable("t1", T0)));
    Task claimed = store.claim("r1", 1, T0, LEASE).get(0);
    Change first = moved(claimed, "pack", T0.plusSeconds(1), "r1/w1", claimed.lease());
    store.record("r1", first);
    Task sleeping = store.update("t1", t -> Commands.apply(t, Command.SLEEP,
        new Commands.Request(T0.plusSeconds(60), "", "ann"), T0.plusSeconds(2)));
    Task woke = store.claim("r1", 1, T0.plusSeconds(60), LEASE).get(0);
    Change second = moved(woke, "bill", T0.plusSeconds(61), "r1/w2", null);
    store.record("r1", second);
    reopen();

    assertThat(store.history("t1")).containsExactly(first.entry(),
        new Transition(T0.plusSeconds(2), "pack", "sleep", "pack", 0, 0, "ann", ""),
        second.entry());
    assertThat(sleeping.state()).isEqualTo("pack");
    assertThat(store.get("t1")).contains(second.next());
  }


  @Test
  void listFiltersByMachineStateAndStatus() {
    store.create(List.of(
        task("a1", "order", "ship", TaskStatus.RUNNABLE, T0),
        task("a2", "order", "ship", TaskStatus.PAUSED, null),
        task("a3", "order", "pack", TaskStatus.RUNNABLE, T0),
        task("a4", "order", "pack", TaskStatus.SLEEPING, T0.plusSeconds(9)),
        task("b1", "refund", "ship", TaskStatus.RUNNABLE, T0),
        task("b2", "refund", "pay", TaskStatus.KILLED, null),
        task("b3", "refund", "ship", TaskStatus.PAUSED, null)));
    reopen();

    assertThat(ids(query("order", null, null, null, 100))).containsExactly("a1", "a2", "a3", "a4");
    assertThat(ids(query(null, "ship", null, null, 100))).containsExactly("a1", "a2", "b1", "b3");
    assertThat(ids(query(null, null, TaskStatus.PAUSED, null, 100))).containsExactly("a2", "b3");
    assertThat(ids(query("refund", "ship", null, null, 100))).containsExactly("b1", "b3");
    assertThat(ids(query("order", "ship", TaskStatus.RUNNABLE, null, 100))).containsExactly("a1");
    assertThat(ids(query("order", null, TaskStatus.KILLED, null, 100))).isEmpty();
    assertThat(ids(query("nope", null, null, null, 100))).isEmpty();
    assertThat(ids(query(null, null, null, null, 100)))
        .containsExactly("a1", "a2", "a3", "a4", "b1", "b2", "b3");
  }

  @Test
  void listSelectsAUnionOfStatusesMatchingTheirStoredStatus() {
    store.create(List.of(
        task("a1", "order", "ship", TaskStatus.RUNNABLE, T0),
        task("a2", "order", "ship", TaskStatus.PAUSED, null),
        task("a3", "order", "pack", TaskStatus.KILLED, null),
        task("a4", "order", "pack", TaskStatus.SLEEPING, T0.plusSeconds(9))));
    reopen();

    assertThat(ids(shown(Set.of(ShownStatus.PAUSED, ShownStatus.KILLED), TaskQuery.Sort.ID)))
        .containsExactly("a2", "a3");
    // The store knows no external states: waiting and runnable both select runnable tasks.
    assertThat(ids(shown(Set.of(ShownStatus.WAITING), TaskQuery.Sort.ID))).containsExactly("a1");
    assertThat(ids(shown(Set.of(ShownStatus.WAITING, ShownStatus.SLEEPING),
        TaskQuery.Sort.CREATED))).containsExactly("a1", "a4");
  }

  @Test
  void listPagesInCreationOrderWhateverTheIds() {
    store.create(List.of(
        created("zeta", T0),
        created("alpha", T0.plusSeconds(2)),
        created("mid", T0.plusSeconds(1)),
        created("c-tie", T0.plusSeconds(1))));
    store.create(List.of(created("late", T0.plusSeconds(3))));
    reopen();

    TaskQuery byCreation = shown(Set.of(), TaskQuery.Sort.CREATED);
    assertThat(ids(byCreation)).containsExactly("zeta", "c-tie", "mid", "alpha", "late");
    TaskQuery newest = new TaskQuery(Optional.empty(), Optional.empty(), Set.of(),
        Optional.empty(), 2, TaskQuery.Order.DESCENDING, TaskQuery.Sort.CREATED);
    assertThat(ids(newest)).containsExactly("late", "alpha");
    assertThat(ids(newest.after("alpha"))).containsExactly("mid", "c-tie");
    assertThat(ids(newest.after("zeta"))).isEmpty();
    TaskQuery page = new TaskQuery(Optional.empty(), Optional.empty(), Set.of(),
        Optional.of("c-tie"), 2, TaskQuery.Order.ASCENDING, TaskQuery.Sort.CREATED);
    assertThat(ids(page)).containsExactly("mid", "alpha");
    assertThat(ids(page.after("gone"))).isEmpty();

    // A change keeps the creation order.
    store.update("zeta", t -> new Change(
        new Task(t.id(), t.machine(), t.version(), "pack", TaskStatus.PAUSED, t.context(),
            t.attempt(), t.errors(), t.created(), T0.plusSeconds(50), null, null, null),
        new Transition(T0.plusSeconds(50), "ship", "pause", "pack", 0, 0, "op", "")));
    reopen();
    assertThat(ids(byCreation)).containsExactly("zeta", "c-tie", "mid", "alpha", "late");
    assertThat(ids(new TaskQuery(Optional.empty(), Optional.of("ship"), Set.of(),
        Optional.empty(), 10, TaskQuery.Order.ASCENDING, TaskQuery.Sort.CREATED)))
        .containsExactly("c-tie", "mid", "alpha", "late");
  }

  @Test
  void listPagesAFilteredCreationOrderWhetherFewOrManyMatch() {
    List<Task> all = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      // Ids run against creation; every third task is killed.
      Task t = created(String.format("t%02d", 99 - i), T0.plusSeconds(i));
      all.add(i % 3 == 0 ? task(t.id(), "order", "pay", TaskStatus.KILLED, null) : t);
    }
    all.replaceAll(t -> t.status() == TaskStatus.KILLED ? new Task(t.id(), t.machine(),
        t.version(), t.state(), t.status(), t.context(), 0, List.of(),
        T0.plusSeconds(99 - Integer.parseInt(t.id().substring(1))), T0, null, null, null) : t);
    store.create(all);
    reopen();

    // Many match: a walk of the creation order finds them.
    TaskQuery paused = new TaskQuery(Optional.of("order"), Optional.empty(),
        Set.of(ShownStatus.PAUSED), Optional.empty(), 2, TaskQuery.Order.ASCENDING,
        TaskQuery.Sort.CREATED);
    assertThat(ids(paused)).containsExactly("t98", "t97");
    assertThat(ids(paused.after("t97"))).containsExactly("t95", "t94");
    TaskQuery newestPaused = new TaskQuery(Optional.empty(), Optional.of("ship"), Set.of(),
        Optional.empty(), 3, TaskQuery.Order.DESCENDING, TaskQuery.Sort.CREATED);
    assertThat(ids(newestPaused)).containsExactly("t70", "t71", "t73");
    // Few match: read through their group, in the same order.
    TaskQuery killed = new TaskQuery(Optional.empty(), Optional.of("pay"), Set.of(),
        Optional.empty(), 4, TaskQuery.Order.ASCENDING, TaskQuery.Sort.CREATED);
    assertThat(ids(killed)).containsExactly("t99", "t96", "t93", "t90");
    assertThat(ids(killed.after("t90"))).containsExactly("t87", "t84", "t81", "t78");
    assertThat(ids(new TaskQuery(Optional.empty(), Optional.empty(),
        Set.of(ShownStatus.FAILED), Optional.empty(), 4, TaskQuery.Order.ASCENDING,
        TaskQuery.Sort.CREATED))).isEmpty();
  }

  @Test
  void listPagesInUpdateOrder() {
    store.create(List.of(created("a", T0), created("b", T0.plusSeconds(1)),
        created("c", T0.plusSeconds(2))));
    store.update("a", t -> new Change(
        new Task(t.id(), t.machine(), t.version(), "pack", TaskStatus.RUNNABLE, t.context(),
            t.attempt(), t.errors(), t.created(), T0.plusSeconds(60), null, T0, null),
        new Transition(T0.plusSeconds(60), "ship", "ok", "pack", 0, 0, "op", "")));
    reopen();

    assertThat(ids(shown(Set.of(), TaskQuery.Sort.UPDATED))).containsExactly("b", "c", "a");
    TaskQuery latest = new TaskQuery(Optional.empty(), Optional.empty(), Set.of(),
        Optional.empty(), 2, TaskQuery.Order.DESCENDING, TaskQuery.Sort.UPDATED);
    assertThat(ids(latest)).containsExactly("a", "c");
    assertThat(ids(latest.after("c"))).containsExactly("b");
  }

  @Test
  void anOperatorsCommandIsATasksLastChangeAndMovesItInUpdateOrder() {
    // Entered their states at T0+1s, T0+2s, T0+3s; `a` is killed an hour later.
    store.create(List.of(created("a", T0.plusSeconds(1)), created("b", T0.plusSeconds(2)),
        created("c", T0.plusSeconds(3))));
    Instant killedAt = T0.plusSeconds(3600);
    store.update("a", t -> Commands.apply(t, Command.KILL, by("ann"), killedAt));
    reopen();

    Task a = store.get("a").orElseThrow();
    assertThat(a.stateEntered()).isEqualTo(T0.plusSeconds(1));
    assertThat(a.changed()).isEqualTo(killedAt);
    assertThat(a.updated()).isEqualTo(killedAt);
    assertThat(ids(shown(Set.of(), TaskQuery.Sort.UPDATED))).containsExactly("b", "c", "a");
    TaskQuery latest = new TaskQuery(Optional.empty(), Optional.empty(), Set.of(),
        Optional.empty(), 1, TaskQuery.Order.DESCENDING, TaskQuery.Sort.UPDATED);
    assertThat(ids(latest)).containsExactly("a");
    assertThat(store.list(TaskQuery.all(10))).extracting(Task::id, Task::changed)
        .containsExactly(tuple("a", killedAt), tuple("b", T0.plusSeconds(2)),
            tuple("c", T0.plusSeconds(3)));
  }

  @Test
  void recentlyChangedTasksComeNewestChangeFirst() {
    store.create(List.of(created("a", T0), created("b", T0.plusSeconds(1)),
        created("c", T0.plusSeconds(2))));
    store.update("a", t -> new Change(
        new Task(t.id(), t.machine(), t.version(), "pack", TaskStatus.RUNNABLE, t.context(),
            t.attempt(), t.errors(), t.created(), T0.plusSeconds(60), null, T0, null),
        new Transition(T0.plusSeconds(60), "ship", "ok", "pack", 0, 0, "op", "")));
    store.update("c", t -> new Change(
        new Task(t.id(), t.machine(), t.version(), t.state(), TaskStatus.RUNNABLE, t.context(),
            t.attempt(), t.errors(), t.created(), t.stateEntered(), null, T0, null),
        new Transition(T0.plusSeconds(61), "ship", "resume", "ship", 0, 0, "op", "")));

    assertThat(recent(Optional.empty(), Set.of(), 10)).containsExactly("c", "a", "b");
    assertThat(recent(Optional.empty(), Set.of(), 2)).containsExactly("c", "a");
    assertThat(recent(Optional.of("ship"), Set.of(), 10)).containsExactly("c", "b");
    assertThat(recent(Optional.empty(), Set.of(ShownStatus.PAUSED), 10)).containsExactly("b");
    store.update("b", t -> new Change(t, new Transition(T0.plusSeconds(62), "ship", "pause",
        "ship", 0, 0, "op", "")));
    assertThat(recent(Optional.empty(), Set.of(), 10)).containsExactly("b", "c", "a");
    store.create(List.of(created("d", T0.plusSeconds(63)).withContext("{\"big\": 1}")));
    assertThat(store.recentlyChanged(new TaskQuery(Optional.empty(), Optional.empty(), Set.of(),
        Optional.empty(), 1, TaskQuery.Order.DESCENDING, TaskQuery.Sort.UPDATED)))
        .extracting(Task::id, Task::context).containsExactly(tuple("d", "{}"));
  }

  private List<String> recent(Optional<String> state, Set<ShownStatus> statuses, int limit) {
    return store.recentlyChanged(new TaskQuery(Optional.empty(), state, statuses,
        Optional.empty(), limit, TaskQuery.Order.DESCENDING, TaskQuery.Sort.UPDATED))
        .stream().map(Task::id).toList();
  }

  @Test
  void aPageAfterAKeyStartsWhereTheCursorTaskWasWhenListed() {
    store.create(List.of(created("a", T0), created("b", T0.plusSeconds(1)),
        created("c", T0.plusSeconds(2)), created("d", T0.plusSeconds(3))));
    reopen();
    TaskQuery byUpdate = new TaskQuery(Optional.empty(), Optional.empty(), Set.of(),
        Optional.empty(), 2, TaskQuery.Order.ASCENDING, TaskQuery.Sort.UPDATED);
    List<Task> first = store.list(byUpdate);
    assertThat(first).extracting(Task::id).containsExactly("a", "b");

    // The cursor task changes after it was listed: it moves to the end of the update order.
    store.update("b", t -> new Change(
        new Task(t.id(), t.machine(), t.version(), "pack", TaskStatus.RUNNABLE, t.context(),
            t.attempt(), t.errors(), t.created(), T0.plusSeconds(60), null, T0, null),
        new Transition(T0.plusSeconds(60), "ship", "ok", "pack", 0, 0, "op", "")));
    reopen();

    assertThat(ids(byUpdate.after(first.get(1)))).as("after b as listed")
        .containsExactly("c", "d");
    assertThat(ids(byUpdate.after("b"))).as("after b as it is now").isEmpty();
    TaskQuery byCreation = new TaskQuery(Optional.empty(), Optional.empty(), Set.of(),
        Optional.empty(), 10, TaskQuery.Order.DESCENDING, TaskQuery.Sort.CREATED);
    Task gone = created("gone", T0.plusSeconds(2).plusMillis(500));
    assertThat(ids(byCreation.after(gone))).as("after a task no store holds")
        .containsExactly("c", "b", "a");
  }

  @Test
  void listPagesInIdOrderAfterAnId() {
    List<Task> all = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      all.add(task(String.format("p-%02d", i), "order", "ship",
          i % 2 == 0 ? TaskStatus.PAUSED : TaskStatus.RUNNABLE, i % 2 == 0 ? null : T0));
    }
    List<Task> shuffled = new ArrayList<>(all);
    Collections.shuffle(shuffled, new Random(7));
    store.create(shuffled);

    List<String> pages = new ArrayList<>();
    List<Integer> sizes = new ArrayList<>();
    String after = null;
    for (int page = 0; page < 4; page++) {
      List<String> got = ids(query(null, null, null, after, 10));
      sizes.add(got.size());
      pages.addAll(got);
      after = got.isEmpty() ? after : got.get(got.size() - 1);
    }
    assertThat(sizes).containsExactly(10, 10, 5, 0);
    assertThat(pages).containsExactlyElementsOf(all.stream().map(Task::id).toList());
    assertThat(store.list(TaskQuery.all(3))).containsExactlyElementsOf(all.subList(0, 3));

    List<String> paused = new ArrayList<>();
    sizes.clear();
    after = null;
    for (int page = 0; page < 3; page++) {
      List<String> got = ids(query(null, null, TaskStatus.PAUSED, after, 5));
      sizes.add(got.size());
      paused.addAll(got);
      after = got.get(got.size() - 1);
    }
    assertThat(sizes).containsExactly(5, 5, 3);
    assertThat(paused).containsExactlyElementsOf(IntStream.range(0, 25).filter(i -> i % 2 == 0)
        .mapToObj(i -> String.format("p-%02d", i)).toList());
    // afterId need not be a task's id: the page starts after it in id order.
    assertThat(ids(query(null, null, null, "p-105", 3))).containsExactly("p-11", "p-12", "p-13");
    assertThat(ids(query(null, null, null, "p-24", 10))).isEmpty();
  }


  @Test
  void idsAreTheIdsListGivesInItsOrder() {
    List<Task> all = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      all.add(task(String.format("q-%02d", 29 - i), i % 3 == 0 ? "refund" : "order",
          i % 2 == 0 ? "ship" : "pack", i % 4 == 0 ? TaskStatus.PAUSED : TaskStatus.RUNNABLE,
          i % 4 == 0 ? null : T0));
    }
    store.create(all);
    reopen();
    List<TaskQuery> queries = new ArrayList<>();
    for (String machine : Arrays.asList(null, "order", "nope")) {
      for (TaskStatus status : Arrays.asList(null, TaskStatus.PAUSED)) {
        for (String after : Arrays.asList(null, "q-10")) {
          queries.add(query(machine, null, status, after, 7));
          queries.add(descending(machine, "ship", status, after, 7));
          queries.add(descending(machine, null, status, after, 100));
        }
      }
    }
    queries.add(shown(Set.of(ShownStatus.PAUSED), TaskQuery.Sort.CREATED));
    queries.add(shown(Set.of(ShownStatus.RUNNABLE), TaskQuery.Sort.UPDATED));
    for (TaskQuery q : queries) {
      assertThat(store.ids(q)).as(q.toString()).isEqualTo(ids(q));
    }
  }

  @Test
  void listPagesInDescendingIdOrderBeforeAnId() {
    assertThat(ids(descending(null, null, null, null, 10))).as("no tasks yet").isEmpty();
    List<Task> all = new ArrayList<>();
    for (int i = 0; i < 25; i++) {
      all.add(task(String.format("p-%02d", i), i % 3 == 0 ? "refund" : "order",
          i % 2 == 0 ? "ship" : "pack", i % 4 == 0 ? TaskStatus.PAUSED : TaskStatus.RUNNABLE,
          i % 4 == 0 ? null : T0));
    }
    List<Task> shuffled = new ArrayList<>(all);
    Collections.shuffle(shuffled, new Random(11));
    store.create(shuffled);
    reopen();

    List<List<String>> pages = pagesOf(null, null, null, 10);
    assertThat(pages).extracting(List::size).containsExactly(10, 10, 5);
    assertThat(pages.stream().flatMap(List::stream)).containsExactlyElementsOf(
        newestFirst(all, t -> true));
    assertThat(store.list(descending(null, null, null, null, 3)))
        .containsExactly(all.get(24), all.get(23), all.get(22));

    // Filters spread over several groups, paged through them all.
    assertThat(pagesOf("order", null, null, 4).stream().flatMap(List::stream))
        .containsExactlyElementsOf(newestFirst(all, t -> t.machine().equals("order")));
    assertThat(pagesOf(null, "ship", null, 3).stream().flatMap(List::stream))
        .containsExactlyElementsOf(newestFirst(all, t -> t.state().equals("ship")));
    assertThat(pagesOf(null, null, TaskStatus.PAUSED, 2).stream().flatMap(List::stream))
        .containsExactlyElementsOf(newestFirst(all, t -> t.status() == TaskStatus.PAUSED));
    List<List<String>> packing = pagesOf("order", "pack", TaskStatus.RUNNABLE, 2);
    assertThat(packing).hasSize(4);
    assertThat(packing.stream().flatMap(List::stream)).containsExactlyElementsOf(newestFirst(all,
        t -> t.machine().equals("order") && t.state().equals("pack")
            && t.status() == TaskStatus.RUNNABLE));
    assertThat(ids(descending("nope", null, null, null, 10))).isEmpty();
    assertThat(ids(descending("order", null, TaskStatus.KILLED, null, 10))).isEmpty();

    // afterId need not be a task's id: the page starts below it in id order.
    assertThat(ids(descending(null, null, null, "p-105", 3)))
        .containsExactly("p-10", "p-09", "p-08");
    assertThat(ids(descending("refund", null, null, "p-105", 2))).containsExactly("p-09", "p-06");
    assertThat(ids(descending(null, null, null, "q", 2))).containsExactly("p-24", "p-23");
    assertThat(ids(descending(null, null, null, "p-00", 10))).isEmpty();
    assertThat(ids(descending("order", "ship", null, "p-02", 10))).isEmpty();
  }

  /** Every page of a descending listing with these filters, each starting below the last. */
  private List<List<String>> pagesOf(String machine, String state, TaskStatus status, int size) {
    List<List<String>> pages = new ArrayList<>();
    String after = null;
    while (true) {
      List<String> got = ids(descending(machine, state, status, after, size));
      if (got.isEmpty()) {
        return pages;
      }
      assertThat(got.size()).isLessThanOrEqualTo(size);
      pages.add(got);
      after = got.get(got.size() - 1);
    }
  }

  private static List<String> newestFirst(List<Task> tasks, Predicate<Task> filter) {
    List<String> ids = new ArrayList<>(tasks.stream().filter(filter).map(Task::id).toList());
    Collections.reverse(ids);
    return ids;
  }

  @Test
  void idsStartingWithAPrefixComeInOrderUpToTheLimit() {
    List<Task> batch = new ArrayList<>();
    for (int i = 12; i >= 1; i--) {
      batch.add(runnable("order-" + i, T0));
    }
    batch.add(runnable("orders-x", T0));
    batch.add(runnable("other", T0));
    batch.add(runnable("refund-1", T0));
    batch.add(runnable("orde", T0));
    store.create(batch);
    reopen();

    assertThat(store.idsStartingWith("order-", 4))
        .containsExactly("order-1", "order-10", "order-11", "order-12");
    assertThat(store.idsStartingWith("order-", 100)).containsExactly("order-1", "order-10",
        "order-11", "order-12", "order-2", "order-3", "order-4", "order-5", "order-6", "order-7",
        "order-8", "order-9");
    assertThat(store.idsStartingWith("orders", 100)).containsExactly("orders-x");
    assertThat(store.idsStartingWith("o", 100)).hasSize(15).startsWith("orde", "order-1")
        .endsWith("order-9", "orders-x", "other");
    assertThat(store.idsStartingWith("order-1", 100))
        .containsExactly("order-1", "order-10", "order-11", "order-12");
    assertThat(store.idsStartingWith("", 3)).containsExactly("orde", "order-1", "order-10");
    assertThat(store.idsStartingWith("zzz", 10)).isEmpty();
    assertThat(store.idsStartingWith("Order", 10)).as("case matters").isEmpty();
  }


  @Test
  void countsGroupByMachineStateAndStatus() {
    assertThat(store.counts()).isEmpty();
    store.create(List.of(
        task("a1", "order", "ship", TaskStatus.RUNNABLE, T0),
        task("a2", "order", "ship", TaskStatus.RUNNABLE, T0),
        task("a3", "order", "ship", TaskStatus.RUNNABLE, T0.plusSeconds(1)),
        task("a4", "order", "ship", TaskStatus.PAUSED, null),
        task("a5", "order", "pack", TaskStatus.RUNNABLE, T0.plusSeconds(2)),
        task("b1", "refund", "ship", TaskStatus.KILLED, null)));

    assertThat(store.counts()).containsExactlyInAnyOrder(
        new TaskCount("order", "ship", TaskStatus.RUNNABLE, 3),
        new TaskCount("order", "ship", TaskStatus.PAUSED, 1),
        new TaskCount("order", "pack", TaskStatus.RUNNABLE, 1),
        new TaskCount("refund", "ship", TaskStatus.KILLED, 1));

    store.update("a1", t -> Commands.apply(t, Command.PAUSE, by("ann"), T0));
    Task claimed = store.claim("r1", 1, T0, LEASE).get(0);
    store.record("r1", moved(claimed, "pack", T0.plusSeconds(1), "r1", null));
    store.update("a5", t -> Commands.apply(t, Command.KILL, by("ann"), T0.plusSeconds(2)));
    reopen();

    assertThat(store.counts()).containsExactlyInAnyOrder(
        new TaskCount("order", "ship", TaskStatus.RUNNABLE, 1),
        new TaskCount("order", "ship", TaskStatus.PAUSED, 2),
        new TaskCount("order", "pack", TaskStatus.RUNNABLE, 1),
        new TaskCount("order", "pack", TaskStatus.KILLED, 1),
        new TaskCount("refund", "ship", TaskStatus.KILLED, 1));
  }


  @Test
  void registeringTheSameTextReturnsItsVersionAndNewTextNumbersTheNext() {
    assertThat(store.versions("order")).isEmpty();
    MachineVersion v1 = store.register("order", ORDER_V1, T0);
    assertThat(v1).isEqualTo(
        new MachineVersion("order", MachineVersion.idOf(ORDER_V1), 1, T0, ORDER_V1));
    assertThat(store.register("order", ORDER_V1, T0.plusSeconds(60))).isEqualTo(v1);

    MachineVersion v2 = store.register("order", ORDER_V2, T0.plusSeconds(120));
    assertThat(v2).isEqualTo(
        new MachineVersion("order", MachineVersion.idOf(ORDER_V2), 2, T0.plusSeconds(120),
            ORDER_V2));
    MachineVersion refund = store.register("refund", ORDER_V1, T0.plusSeconds(240));
    reopen();

    assertThat(store.versions("order")).containsExactly(v1, v2);
    assertThat(refund.number()).as("numbered per machine").isEqualTo(1);
    assertThat(store.versions("refund")).containsExactly(refund);
    assertThat(store.versions("nope")).isEmpty();
    assertThat(store.register("order", ORDER_V2, T0.plusSeconds(300))).isEqualTo(v2);
    MachineVersion v3 = store.register("order", ORDER_V2 + "# tweak\n", T0.plusSeconds(360));
    assertThat(v3.number()).isEqualTo(3);
    assertThat(store.versions("order")).containsExactly(v1, v2, v3);
    assertThat(store.allVersions()).as("by machine, then oldest first")
        .containsExactly(v1, v2, v3, refund);
  }


  @Test
  void everythingAcknowledgedSurvivesAReopen() {
    List<Task> batch = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      batch.add(new Task(String.format("d-%02d", i), i % 3 == 0 ? "refund" : "order", "v" + i % 2,
          i % 4 == 0 ? "ship" : "pack", TaskStatus.RUNNABLE, "{\"i\":" + i + ",\"s\":\"é\\n\"}",
          i % 5, i % 7 == 0 ? List.of(new TaskError(T0.minusSeconds(i), "error " + i)) : List.of(),
          T0.minusSeconds(100 + i), T0.minusSeconds(50), i % 2 == 0 ? null : T0.minusSeconds(i),
          T0.plusSeconds(i), null));
    }
    store.create(batch);
    MachineVersion v1 = store.register("order", ORDER_V1, T0);
    MachineVersion v2 = store.register("order", ORDER_V2, T0.plusSeconds(1));
    List<Task> claimed = store.claim("r1", 10, T0.plusSeconds(20), LEASE);
    for (Task t : claimed.subList(0, 5)) {
      store.record("r1", moved(t, "bill", T0.plusSeconds(21), "r1/w1", null));
    }
    store.update("d-30", t -> Commands.apply(t, Command.PAUSE, by("ann"), T0.plusSeconds(22)));
    store.update("d-31", t -> Commands.apply(t, Command.KILL, by("ann"), T0.plusSeconds(22)));
    store.update("d-32", t -> Commands.apply(t, Command.SLEEP,
        new Commands.Request(T0.plusSeconds(3600), "", "ann"), T0.plusSeconds(22)));

    List<Task> before = store.list(TaskQuery.all(100));
    Map<String, List<Transition>> histories = new HashMap<>();
    for (Task t : before) {
      histories.put(t.id(), store.history(t.id()));
    }
    List<TaskCount> counts = store.counts();
    reopen();
    assertSameTasks(store.list(TaskQuery.all(100)), before);
    reopen();
    assertSameTasks(store.list(TaskQuery.all(100)), before);

    for (Task t : before) {
      assertThat(store.history(t.id())).as(t.id()).isEqualTo(histories.get(t.id()));
    }
    assertThat(store.counts()).containsExactlyInAnyOrderElementsOf(counts);
    assertThat(store.versions("order")).containsExactly(v1, v2);
    assertThat(store.idsStartingWith("d-3", 100)).hasSize(10);

    List<Task> due = store.claim("r2", 100, T0.plusSeconds(3600).plus(LEASE), LEASE);
    assertThat(due).extracting(Task::id).doesNotContain("d-30", "d-31").contains("d-32")
        .hasSize(48);
    assertThat(due).extracting(Task::due).isSorted();
  }


  @Test
  void concurrentClaimsHandEachTaskToExactlyOneOwner() throws Exception {
    int count = 2000;
    List<Task> batch = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      batch.add(runnable(String.format("c-%04d", i), T0.minusMillis(count - i)));
    }
    store.create(batch);

    int threads = 4;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    Map<String, List<Task>> byOwner = new HashMap<>();
    try {
      CountDownLatch start = new CountDownLatch(1);
      Map<String, Future<List<Task>>> futures = new HashMap<>();
      for (int w = 0; w < threads; w++) {
        String owner = "runner-" + w;
        futures.put(owner, pool.submit(() -> {
          start.await();
          List<Task> mine = new ArrayList<>();
          List<Task> got;
          while (!(got = store.claim(owner, 16, T0, Duration.ofMinutes(5))).isEmpty()) {
            mine.addAll(got);
          }
          return mine;
        }));
      }
      start.countDown();
      for (Map.Entry<String, Future<List<Task>>> e : futures.entrySet()) {
        byOwner.put(e.getKey(), e.getValue().get(60, TimeUnit.SECONDS));
      }
    } finally {
      pool.shutdownNow();
    }

    List<String> all = byOwner.values().stream().flatMap(List::stream).map(Task::id).toList();
    assertThat(all).hasSize(count).doesNotHaveDuplicates();
    assertThat(new HashSet<>(all))
        .isEqualTo(batch.stream().map(Task::id).collect(Collectors.toSet()));
    for (Map.Entry<String, List<Task>> e : byOwner.entrySet()) {
      for (Task t : e.getValue()) {
        assertThat(t.lease().owner()).isEqualTo(e.getKey());
        assertThat(store.get(t.id()).orElseThrow().lease()).isEqualTo(t.lease());
      }
    }
    assertThat(store.claim("late", 10, T0, LEASE)).isEmpty();
  }


  private static Task task(String id, String machine, String state, TaskStatus status,
      Instant due) {
    return new Task(id, machine, "abc123abc123", state, status, "{}", 0, List.of(), T0, T0, null,
        due, null);
  }

  /** A paused task created (and last changed) at {@code at}. */
  private static Task created(String id, Instant at) {
    return new Task(id, "order", "abc123abc123", "ship", TaskStatus.PAUSED, "{}", 0, List.of(),
        at, at, null, null, null);
  }

  private static TaskQuery shown(Set<ShownStatus> statuses, TaskQuery.Sort sort) {
    return new TaskQuery(Optional.empty(), Optional.empty(), statuses, Optional.empty(), 100,
        TaskQuery.Order.ASCENDING, sort);
  }

  private static Task runnable(String id, Instant due) {
    return task(id, "order", "ship", TaskStatus.RUNNABLE, due);
  }

  private static Task leased(Task t, Lease lease) {
    return new Task(t.id(), t.machine(), t.version(), t.state(), t.status(), t.context(),
        t.attempt(), t.errors(), t.created(), t.stateEntered(), t.lastAttempt(), t.due(), lease);
  }

  private static Commands.Request by(String who) {
    return new Commands.Request(null, "", who);
  }

  /** What a runner records when an action finishes: the next state, runnable now. */
  private static Change moved(Task from, String to, Instant at, String by, Lease keep) {
    Task next = new Task(from.id(), from.machine(), from.version(), to, TaskStatus.RUNNABLE,
        "{\"reached\":\"" + to + "\"}", 0, from.errors(), from.created(), at,
        at.minusMillis(1500), at, keep);
    return new Change(next, new Transition(at, from.state(), "done", to, 1500,
        from.attempt() + 1, by, ""));
  }

  /** A change that only counts: a checkpoint whose history entry carries the count so far. */
  private static Change checkpointCountingAttempts(Task t, String by) {
    Task next = new Task(t.id(), t.machine(), t.version(), t.state(), t.status(), t.context(),
        t.attempt() + 1, t.errors(), t.created(), t.stateEntered(), t.lastAttempt(), t.due(),
        t.lease());
    return new Change(next,
        new Transition(T0, t.state(), "checkpoint", t.state(), 0, t.attempt(), by, ""));
  }

  private List<String> ids(TaskQuery query) {
    return store.list(query).stream().map(Task::id).toList();
  }

  private static TaskQuery query(String machine, String state, TaskStatus status, String afterId,
      int limit) {
    return new TaskQuery(Optional.ofNullable(machine), Optional.ofNullable(state),
        Optional.ofNullable(status), Optional.ofNullable(afterId), limit);
  }

  private static TaskQuery descending(String machine, String state, TaskStatus status,
      String afterId, int limit) {
    return new TaskQuery(Optional.ofNullable(machine), Optional.ofNullable(state),
        Optional.ofNullable(status), Optional.ofNullable(afterId), limit,
        TaskQuery.Order.DESCENDING);
  }

  // Leases need not survive a reopen: an embedded store reopened by a new runner hands leased
  // tasks back at once (SPEC section 4), so a lease is either the one given or gone.
  private static void assertSameTasks(List<Task> after, List<Task> before) {
    assertThat(after).hasSameSizeAs(before);
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < before.size(); i++) {
      Task b = before.get(i);
      Task a = after.get(i);
      assertThat(leased(a, null)).isEqualTo(leased(b, null));
      if (a.lease() != null) {
        assertThat(a.lease()).as(a.id()).isEqualTo(b.lease());
      }
      seen.add(a.id());
    }
    assertThat(seen).hasSize(before.size());
  }

  // ---- pausing: pause --after-step, kept with the task and settled with the runner's record ----

  private static final Commands.Request AFTER_STEP =
      new Commands.Request(null, "deploy", "user:ann", null, true, null);

  @Test
  void aPauseAfterTheStepIsAppliedWhenTheRunnersStepIsRecorded() {
    store.create(List.of(runnable("t1", T0), runnable("t2", T0)));
    List<Task> claimed = store.claim("r1", 2, T0, LEASE);
    for (Task t : claimed) {
      Task marked = store.update(t.id(), c -> Commands.apply(c, Command.PAUSE, AFTER_STEP,
          T0.plusSeconds(1)));
      assertThat(marked.status()).isEqualTo(TaskStatus.RUNNABLE);
      assertThat(marked.pausing()).isEqualTo(new Pausing(T0.plusSeconds(1), "user:ann",
          "deploy"));
    }
    // The runner computed its changes from the tasks as claimed, before the pause was asked.
    store.record("r1", moved(claimed.get(0), "deliver", T0.plusSeconds(2), "r1/w1", null));
    assertThat(store.recordAll("r1", List.of(moved(claimed.get(1), "deliver",
        T0.plusSeconds(2), "r1/w2", null)))).isEmpty();
    reopen();

    for (String id : List.of("t1", "t2")) {
      Task after = store.get(id).orElseThrow();
      assertThat(after.state()).isEqualTo("deliver");
      assertThat(after.status()).isEqualTo(TaskStatus.PAUSED);
      assertThat(after.pausing()).isNull();
      assertThat(after.due()).isNull();
      List<Transition> history = store.history(id);
      assertThat(history).extracting(Transition::event)
          .containsExactly("pause --after-step", "done", "pause");
      assertThat(history.get(2)).isEqualTo(new Transition(T0.plusSeconds(2), "deliver", "pause",
          "deliver", 0, 0, "user:ann", "deploy"));
    }
    assertThat(store.claim("r2", 10, T0.plusSeconds(60), LEASE)).isEmpty();
  }

  @Test
  void aPendingPauseSurvivesAReopenAndARecordThatKeepsTheLease() {
    store.create(List.of(runnable("t1", T0)));
    Task claimed = store.claim("r1", 1, T0, LEASE).get(0);
    store.update("t1", c -> Commands.apply(c, Command.PAUSE, AFTER_STEP, T0.plusSeconds(1)));
    // An at-most-once attempt's start keeps the lease: the step has not ended.
    store.record("r1", checkpointCountingAttempts(claimed, "r1/w1"));
    assertThat(store.get("t1").orElseThrow().pausing()).isNotNull();
    store.renew("r1", List.of("t1"), T0.plusSeconds(40));
    reopen();

    Task after = store.get("t1").orElseThrow();
    assertThat(after.status()).isEqualTo(TaskStatus.RUNNABLE);
    assertThat(after.pausing()).isEqualTo(new Pausing(T0.plusSeconds(1), "user:ann", "deploy"));
  }

  @Test
  void runCancelsAPendingPauseSoTheStepIsRecordedAsItIs() {
    store.create(List.of(runnable("t1", T0)));
    Task claimed = store.claim("r1", 1, T0, LEASE).get(0);
    store.update("t1", c -> Commands.apply(c, Command.PAUSE, AFTER_STEP, T0.plusSeconds(1)));
    store.update("t1", c -> Commands.apply(c, Command.RUN, by("user:bob"), T0.plusSeconds(2)));
    store.record("r1", moved(claimed, "deliver", T0.plusSeconds(3), "r1/w1", null));

    Task after = store.get("t1").orElseThrow();
    assertThat(after.status()).isEqualTo(TaskStatus.RUNNABLE);
    assertThat(after.state()).isEqualTo("deliver");
    assertThat(after.pausing()).isNull();
  }

  @Test
  void aPendingPauseGoesWithTheTaskWhenItsLeaseIsLost() {
    store.create(List.of(runnable("t1", T0)));
    Task claimed = store.claim("r1", 1, T0, LEASE).get(0);
    store.update("t1", c -> Commands.apply(c, Command.PAUSE, AFTER_STEP, T0.plusSeconds(1)));
    Instant later = T0.plus(LEASE).plusSeconds(1);
    List<Task> again = store.claim("r2", 1, later, LEASE);
    assertThat(again).hasSize(1);
    assertThat(again.get(0).pausing()).as("the next claimer pauses it instead of running it")
        .isEqualTo(new Pausing(T0.plusSeconds(1), "user:ann", "deploy"));
    assertThat(store.recordAll("r1", List.of(moved(claimed, "deliver", later, "r1/w1", null))))
        .containsExactly("t1");
    assertThat(store.get("t1").orElseThrow().state()).isEqualTo("ship");
  }

  // ---- limits: concurrency caps and open breakers passed to claim as ClaimLimits ----

  private static Task due(String id, String machine, String state, int second) {
    return task(id, machine, state, TaskStatus.RUNNABLE, T0.plusSeconds(second));
  }

  private static ClaimLimits machineRoom(String machine, int room) {
    return new ClaimLimits(Map.of(machine, room), Map.of());
  }

  @Test
  void aMachineLimitPassesOverItsTasksAndClaimsOthersBehindThem() {
    store.create(List.of(due("a1", "alpha", "s", 0), due("a2", "alpha", "s", 1),
        due("a3", "alpha", "s", 2), due("b1", "beta", "s", 3)));
    assertThat(store.claim("r1", 10, T0.plusSeconds(10), LEASE, machineRoom("alpha", 1)))
        .extracting(Task::id).containsExactly("a1", "b1");
    assertThat(store.claim("r1", 10, T0.plusSeconds(10), LEASE, machineRoom("alpha", 0)))
        .isEmpty();
  }

  @Test
  void tasksHeldBackStayDueInTheirPlaceAndAreNotChanged() {
    store.create(List.of(due("a1", "alpha", "s", 0), due("a2", "alpha", "s", 1),
        due("a3", "alpha", "s", 2)));
    assertThat(store.claim("r1", 10, T0.plusSeconds(10), LEASE, machineRoom("alpha", 0)))
        .isEmpty();
    assertThat(store.nextDue()).contains(T0);
    for (String id : List.of("a1", "a2", "a3")) {
      Task t = store.get(id).orElseThrow();
      assertThat(t.status()).isEqualTo(TaskStatus.RUNNABLE);
      assertThat(t.lease()).isNull();
      assertThat(t.attempt()).isZero();
      assertThat(store.history(id)).isEmpty();
    }
    assertThat(store.claim("r1", 10, T0.plusSeconds(10), LEASE, machineRoom("alpha", 2)))
        .extracting(Task::id).containsExactly("a1", "a2");
    assertThat(store.claim("r1", 10, T0.plusSeconds(10), LEASE, ClaimLimits.NONE))
        .extracting(Task::id).containsExactly("a3");
  }

  @Test
  void aStateLimitHoldsBackOnlyThatStateOfThatMachine() {
    store.create(List.of(due("s1", "alpha", "pay", 0), due("s2", "alpha", "pay", 1),
        due("s3", "alpha", "ship", 2), due("s4", "beta", "pay", 3)));
    ClaimLimits limits = new ClaimLimits(Map.of(), Map.of("alpha", Map.of("pay", 1)));
    assertThat(store.claim("r1", 10, T0.plusSeconds(10), LEASE, limits))
        .extracting(Task::id).containsExactly("s1", "s3", "s4");
  }

  @Test
  void machineAndStateLimitsBindTogether() {
    store.create(List.of(due("p1", "alpha", "pay", 0), due("p2", "alpha", "pay", 1),
        due("h1", "alpha", "ship", 2), due("h2", "alpha", "ship", 3)));
    ClaimLimits limits = new ClaimLimits(Map.of("alpha", 2), Map.of("alpha", Map.of("pay", 1)));
    assertThat(store.claim("r1", 10, T0.plusSeconds(10), LEASE, limits))
        .extracting(Task::id).containsExactly("p1", "h1");
  }

  @Test
  void limitsCountOnlyWhatThisClaimTakesAndMaxStillBinds() {
    store.create(IntStream.range(0, 6).mapToObj(i -> due("t" + i, "alpha", "s", i)).toList());
    assertThat(store.claim("r1", 2, T0.plusSeconds(10), LEASE, machineRoom("alpha", 5)))
        .extracting(Task::id).containsExactly("t0", "t1");
    assertThat(store.claim("r1", 10, T0.plusSeconds(10), LEASE, machineRoom("alpha", 3)))
        .extracting(Task::id).containsExactly("t2", "t3", "t4");
  }

  @Test
  void limitsDoNotMakeATaskDueEarlier() {
    store.create(List.of(due("a1", "alpha", "s", 0), due("b1", "beta", "s", 60)));
    assertThat(store.claim("r1", 10, T0.plusSeconds(10), LEASE, machineRoom("alpha", 0)))
        .isEmpty();
    assertThat(store.claim("r1", 10, T0.plusSeconds(60), LEASE, machineRoom("alpha", 0)))
        .extracting(Task::id).containsExactly("b1");
  }

  @Test
  void tasksFarBehindAFullMachinesAreClaimedAtOnce() {
    List<Task> tasks = new ArrayList<>();
    for (int i = 0; i < 3000; i++) {
      tasks.add(task(String.format("a%05d", i), "alpha", "s", TaskStatus.RUNNABLE,
          T0.plusMillis(i)));
    }
    tasks.add(due("b1", "beta", "s", 10));
    store.create(tasks);
    assertThat(store.claim("r1", 4, T0.plusSeconds(20), LEASE, machineRoom("alpha", 0)))
        .extracting(Task::id).containsExactly("b1");
    assertThat(store.claim("r1", 2, T0.plusSeconds(20), LEASE, machineRoom("alpha", 1)))
        .extracting(Task::id).containsExactly("a00000");
  }

  @Test
  void limitsFollowATaskThatMovedStateOrCameBackFromAnEndedLease() {
    store.create(List.of(due("t1", "alpha", "pay", 0), due("t2", "alpha", "pay", 1)));
    ClaimLimits payFull = new ClaimLimits(Map.of(), Map.of("alpha", Map.of("pay", 0)));
    ClaimLimits shipFull = new ClaimLimits(Map.of(), Map.of("alpha", Map.of("ship", 0)));
    assertThat(store.claim("r1", 10, T0.plusSeconds(5), LEASE, payFull)).isEmpty();
    Task t1 = store.claim("r1", 1, T0.plusSeconds(5), LEASE, shipFull).get(0);
    assertThat(t1.id()).isEqualTo("t1");
    store.record("r1", moved(t1, "ship", T0.plusSeconds(6), "r1", null));
    // t1 is in `ship` now: held back by a full `ship`, while t2 waits in `pay`.
    assertThat(store.claim("r1", 10, T0.plusSeconds(7), LEASE, shipFull))
        .extracting(Task::id).containsExactly("t2");
    assertThat(store.claim("r1", 10, T0.plusSeconds(7), LEASE, payFull))
        .extracting(Task::id).containsExactly("t1");
    // Both leases end unrenewed: each is back in its group, claimable under the other's limit.
    Instant later = T0.plusSeconds(7).plus(LEASE).plusSeconds(1);
    assertThat(store.claim("r2", 10, later, LEASE, payFull))
        .extracting(Task::id).containsExactly("t1");
    assertThat(store.claim("r2", 10, later, LEASE, shipFull))
        .extracting(Task::id).containsExactly("t2");
  }

  @Test
  void nextDueWithLimitsLeavesOutWhatTheyHoldBack() {
    store.create(List.of(due("a1", "alpha", "pay", 0), due("a2", "alpha", "ship", 30),
        due("b1", "beta", "pay", 60)));
    assertThat(store.nextDue(ClaimLimits.NONE)).contains(T0);
    assertThat(store.nextDue(machineRoom("alpha", 0))).contains(T0.plusSeconds(60));
    assertThat(store.nextDue(new ClaimLimits(Map.of(), Map.of("alpha", Map.of("pay", 0)))))
        .contains(T0.plusSeconds(30));
    assertThat(store.nextDue(new ClaimLimits(Map.of("alpha", 0, "beta", 0), Map.of())))
        .isEmpty();
    assertThat(store.nextDue()).contains(T0);
  }

  @Test
  void aClaimForSomeMachinesTakesOnlyTheirTasks() {
    store.create(List.of(due("a1", "alpha", "s", 0), due("b1", "beta", "s", 1),
        due("c1", "gamma", "s", 2), due("b2", "beta", "s", 3)));
    ClaimLimits onlyBeta = ClaimLimits.NONE.onlyMachines(Set.of("beta"));
    assertThat(store.nextDue(onlyBeta)).contains(T0.plusSeconds(1));
    assertThat(store.claim("r1", 10, T0.plusSeconds(10), LEASE, onlyBeta))
        .extracting(Task::id).containsExactly("b1", "b2");
    ClaimLimits capped = machineRoom("gamma", 1).onlyMachines(Set.of("alpha", "gamma"));
    assertThat(store.claim("r1", 10, T0.plusSeconds(10), LEASE, capped))
        .extracting(Task::id).containsExactly("a1", "c1");
  }

  @Test
  void capsCountTheLiveLeasesOfEveryOwnerOfASharedStore() {
    assumeTrue(sharedByManyRunners(), "only a shared store has other owners");
    store.create(IntStream.range(0, 6).mapToObj(i -> due("t" + i, "alpha", "pay", i)).toList());
    assertThat(store.claim("r1", 2, T0.plusSeconds(10), LEASE, ClaimLimits.NONE))
        .extracting(Task::id).containsExactly("t0", "t1");
    // r2 holds nothing, so its room is the whole cap of 3, of which r1 holds 2.
    assertThat(store.claim("r2", 10, T0.plusSeconds(10), LEASE, machineRoom("alpha", 3)))
        .extracting(Task::id).containsExactly("t2");
    ClaimLimits payCap = new ClaimLimits(Map.of(), Map.of("alpha", Map.of("pay", 3)));
    assertThat(store.claim("r3", 10, T0.plusSeconds(10), LEASE, payCap)).isEmpty();
    // Once r1's leases end unrenewed they no longer count.
    Instant later = T0.plusSeconds(10).plus(LEASE).plusSeconds(1);
    assertThat(store.claim("r3", 10, later, LEASE, payCap))
        .extracting(Task::id).containsExactly("t0", "t1", "t2");
  }

  // --- versions: a rollback to an older text is a new newest version with an id of its own ---

  @Test
  void registeringAnOlderTextAgainMakesItTheNewestVersionWithAnIdOfItsOwn() {
    MachineVersion v1 = store.register("order", ORDER_V1, T0);
    MachineVersion v2 = store.register("order", ORDER_V2, T0.plusSeconds(60));
    MachineVersion v3 = store.register("order", ORDER_V1, T0.plusSeconds(120));
    assertThat(v3.number()).isEqualTo(3);
    assertThat(v3.definition()).isEqualTo(ORDER_V1);
    assertThat(v3.registered()).isEqualTo(T0.plusSeconds(120));
    assertThat(v3.version()).as("ids stay unique within a machine")
        .isNotIn(v1.version(), v2.version()).matches("[0-9a-f]{12}");
    assertThat(store.register("order", ORDER_V1, T0.plusSeconds(180)))
        .as("the newest text again changes nothing").isEqualTo(v3);
    MachineVersion v4 = store.register("order", ORDER_V2, T0.plusSeconds(240));
    MachineVersion v5 = store.register("order", ORDER_V1, T0.plusSeconds(300));
    assertThat(List.of(v4.number(), v5.number())).containsExactly(4, 5);
    assertThat(Set.of(v1.version(), v2.version(), v3.version(), v4.version(), v5.version()))
        .hasSize(5);
    reopen();

    assertThat(store.versions("order")).containsExactly(v1, v2, v3, v4, v5);
    assertThat(store.register("order", ORDER_V1, T0.plusSeconds(360))).isEqualTo(v5);
    assertThat(store.versions("order")).hasSize(5);
  }

  // ---- purge (issue 17, part "purge"): fsm purge and retention ----

  private static final Instant PURGE_NOW = T0.plus(Duration.ofDays(3));

  /** Moves a task to a final state at {@code at}, as a runner's last step does. */
  private void finish(String id, TaskStatus status, Instant at) {
    store.update(id, t -> new Change(new Task(t.id(), t.machine(), t.version(), "end", status,
        t.context(), 0, t.errors(), t.created(), at, at.minusSeconds(1), null, null),
        new Transition(at, t.state(), "ok", "end", 1000, 1, "runner", "")));
  }

  private List<TaskCount> purgeAll(PurgeQuery query) {
    List<TaskCount> all = new ArrayList<>();
    PurgeQuery next = query;
    while (true) {
      PurgeBatch batch = store.purge(next, PURGE_NOW);
      all.addAll(batch.purged());
      if (batch.resumeAfter().isEmpty()) {
        return all;
      }
      next = next.after(batch.resumeAfter().get());
    }
  }

  private static long total(List<TaskCount> counts) {
    return counts.stream().mapToLong(TaskCount::count).sum();
  }

  private void terminalMix() {
    store.create(List.of(runnable("a-done", T0), runnable("b-failed", T0), runnable("c-killed",
        T0), runnable("d-runnable", T0), created("e-paused", T0), runnable("f-recent", T0),
        task("g-other", "refund", "ship", TaskStatus.RUNNABLE, T0)));
    finish("a-done", TaskStatus.COMPLETED, T0.plusSeconds(60));
    finish("b-failed", TaskStatus.FAILED, T0.plusSeconds(120));
    store.update("c-killed", t -> Commands.apply(t, Command.KILL, by("ann"), T0.plusSeconds(5)));
    finish("f-recent", TaskStatus.COMPLETED, PURGE_NOW.minusSeconds(3600));
    finish("g-other", TaskStatus.COMPLETED, T0.plusSeconds(60));
  }

  @Test
  void purgeDeletesTerminalTasksOlderThanTheAgeWithTheirHistoriesAndNothingElse() {
    terminalMix();

    List<TaskCount> purged = purgeAll(PurgeQuery.olderThan(Duration.ofDays(1)));

    assertThat(purged).containsExactlyInAnyOrder(
        new TaskCount("order", "end", TaskStatus.COMPLETED, 1),
        new TaskCount("order", "end", TaskStatus.FAILED, 1),
        new TaskCount("order", "ship", TaskStatus.KILLED, 1),
        new TaskCount("refund", "end", TaskStatus.COMPLETED, 1));
    for (int pass = 0; pass < 2; pass++) {
      for (String gone : List.of("a-done", "b-failed", "c-killed", "g-other")) {
        assertThat(store.get(gone)).as(gone).isEmpty();
        assertThatThrownBy(() -> store.history(gone)).isInstanceOf(TaskNotFoundException.class);
      }
      assertThat(ids(TaskQuery.all(100))).containsExactly("d-runnable", "e-paused", "f-recent");
      assertThat(ids(shown(Set.of(), TaskQuery.Sort.CREATED)))
          .containsExactlyInAnyOrder("d-runnable", "e-paused", "f-recent");
      assertThat(ids(query(null, null, TaskStatus.COMPLETED, null, 100)))
          .containsExactly("f-recent");
      assertThat(store.counts()).containsExactly(
          new TaskCount("order", "end", TaskStatus.COMPLETED, 1),
          new TaskCount("order", "ship", TaskStatus.RUNNABLE, 1),
          new TaskCount("order", "ship", TaskStatus.PAUSED, 1));
      assertThat(store.history("f-recent")).hasSize(1);
      assertThat(store.idsStartingWith("", 10)).containsExactly("d-runnable", "e-paused",
          "f-recent");
      reopen();
    }
    assertThat(store.claim("r", 10, PURGE_NOW, LEASE)).extracting(Task::id)
        .containsExactly("d-runnable");
    assertThat(total(purgeAll(PurgeQuery.olderThan(Duration.ofDays(1))))).isZero();
  }

  @Test
  void aDryRunCountsWhatAPurgeWouldDeleteAndChangesNothing() {
    terminalMix();
    List<TaskCount> before = store.counts();

    List<TaskCount> counted = purgeAll(PurgeQuery.olderThan(Duration.ofHours(2)).dryRun(true));

    assertThat(total(counted)).isEqualTo(4);
    assertThat(store.counts()).isEqualTo(before);
    assertThat(store.get("a-done")).isPresent();
    assertThat(store.history("a-done")).hasSize(1);
    assertThat(total(purgeAll(PurgeQuery.olderThan(Duration.ofMinutes(30)).dryRun(true))))
        .isEqualTo(5);
  }

  @Test
  void purgeFiltersByMachineAndStatus() {
    terminalMix();

    PurgeQuery failedOrKilled = new PurgeQuery(Optional.of("order"),
        Set.of(TaskStatus.FAILED, TaskStatus.KILLED), Duration.ofDays(1), false,
        Optional.empty(), PurgeQuery.BATCH);
    assertThat(total(purgeAll(failedOrKilled))).isEqualTo(2);
    assertThat(store.get("a-done")).isPresent();
    assertThat(store.get("g-other")).isPresent();

    PurgeQuery refunds = new PurgeQuery(Optional.of("refund"), Set.of(), Duration.ofDays(1),
        false, Optional.empty(), PurgeQuery.BATCH);
    assertThat(purgeAll(refunds))
        .containsExactly(new TaskCount("refund", "end", TaskStatus.COMPLETED, 1));
    assertThat(store.get("a-done")).isPresent();
    assertThat(store.get("g-other")).isEmpty();
  }

  @Test
  void aKilledTaskIsAsOldAsItsKillNotItsState() {
    store.create(List.of(created("p", T0.minus(Duration.ofDays(30)))));
    store.update("p", t -> Commands.apply(t, Command.KILL, by("ann"),
        PURGE_NOW.minusSeconds(600)));

    assertThat(total(purgeAll(PurgeQuery.olderThan(Duration.ofHours(1))))).isZero();
    assertThat(total(purgeAll(PurgeQuery.olderThan(Duration.ofMinutes(5))))).isEqualTo(1);
    assertThat(store.get("p")).isEmpty();
  }

  @Test
  void aPurgeGoesABatchAtATimeAndResumesAfterItsCursor() {
    List<Task> many = new ArrayList<>();
    for (int i = 0; i < 45; i++) {
      many.add(runnable(String.format("t%03d", i), T0));
    }
    store.create(many);
    for (int i = 0; i < 45; i++) {
      if (i % 3 != 0) {
        finish(String.format("t%03d", i), TaskStatus.COMPLETED, T0);
      }
    }

    PurgeBatch first = store.purge(PurgeQuery.olderThan(Duration.ofDays(1)).batch(10),
        PURGE_NOW);
    assertThat(first.total()).isEqualTo(10);
    assertThat(first.resumeAfter()).contains("t014");
    assertThat(first.held().isNegative()).isFalse();
    assertThat(total(purgeAll(PurgeQuery.olderThan(Duration.ofDays(1)).batch(10))))
        .isEqualTo(20);
    assertThat(store.list(TaskQuery.all(100))).hasSize(15)
        .allMatch(t -> t.status() == TaskStatus.RUNNABLE);
  }

  @Test
  void aPurgedIdCanBeUsedAgainWithAFreshHistory() {
    store.create(List.of(runnable("again", T0)));
    finish("again", TaskStatus.FAILED, T0);
    store.update("again", t -> Commands.apply(t, Command.REDRIVE, by("ann"), T0.plusSeconds(1)));
    finish("again", TaskStatus.COMPLETED, T0.plusSeconds(2));
    assertThat(store.history("again")).hasSize(3);
    assertThat(total(purgeAll(PurgeQuery.olderThan(Duration.ofDays(1))))).isEqualTo(1);

    Task fresh = runnable("again", PURGE_NOW);
    store.create(List.of(fresh));
    reopen();

    assertThat(store.get("again")).contains(fresh);
    assertThat(store.history("again")).isEmpty();
    assertThat(store.counts()).containsExactly(
        new TaskCount("order", "ship", TaskStatus.RUNNABLE, 1));
    finish("again", TaskStatus.COMPLETED, PURGE_NOW);
    reopen();
    assertThat(store.history("again")).extracting(Transition::to).containsExactly("end");
  }

  @Test
  void aPurgeQueryRefusesStatusesThatAreNotTerminal() {
    assertThatThrownBy(() -> new PurgeQuery(Optional.empty(), Set.of(TaskStatus.RUNNABLE),
        Duration.ofDays(1), false, Optional.empty(), PurgeQuery.BATCH))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("runnable");
    store.create(List.of(runnable("r", T0), created("p", T0)));
    assertThat(total(purgeAll(PurgeQuery.olderThan(Duration.ZERO)))).isZero();
    assertThat(store.list(TaskQuery.all(10))).hasSize(2);
  }

  // ---- restore (issue 18, part "export"): fsm store import ----

  /** Tasks of every kind an export carries, each with a history of its own length. */
  private static List<TaskHistory> restorable() {
    Task running = new Task("r-run", "order", "v1aaaaaaaaaa", "pack", TaskStatus.RUNNABLE,
        "{\"to\":\"Zoë \\\"Q\\\" Ünal 🚚\",\"n\":[1,2.50,{\"deep\":null}]}", 2,
        List.of(new TaskError(T0.minusSeconds(90), "carrier down\nline two")),
        T0.minusSeconds(3600), T0.minusSeconds(120), T0.minusSeconds(90), T0, null);
    Task sleeping = new Task("r-sleep", "order", "v1aaaaaaaaaa", "wait", TaskStatus.SLEEPING,
        "{}", 0, List.of(), T0.minusSeconds(10), T0.minusSeconds(5), null, T0.plusSeconds(60),
        null);
    Task paused = new Task("r-paused", "order", "v2bbbbbbbbbb", "ship", TaskStatus.PAUSED,
        "{\"a\":1}", 1, List.of(), T0.minusSeconds(20), T0.minusSeconds(20),
        T0.minusSeconds(15), null, null);
    Task done = new Task("r-done", "refund", "v9cccccccccc", "end", TaskStatus.COMPLETED,
        "{}", 0, List.of(), T0.minusSeconds(30), T0.minusSeconds(1), T0.minusSeconds(2), null,
        null);
    // A lease is the source store's runner's: dropped. A pending pause is the task's: kept.
    Task held = new Task("r-held", "order", "v1aaaaaaaaaa", "pack", TaskStatus.RUNNABLE, "{}",
        1, List.of(), T0.minusSeconds(40), T0.minusSeconds(40), T0.minusSeconds(3),
        T0.minusSeconds(40), new Lease("runner-old", T0.plusSeconds(600)),
        new Pausing(T0.minusSeconds(2), "ann", "after this step"));
    return List.of(
        new TaskHistory(running, List.of(
            new Transition(T0.minusSeconds(3000), "new", "start", "pack", 0, 0, "ann", ""),
            // Microseconds: what every store keeps (PostgreSQL's timestamptz keeps no more).
            new Transition(T0.minusSeconds(120).plusNanos(123456000), "pack", "fail", "pack",
                1500, 1, "runner-1/w2", "exit 3: \"boom\" ✗"))),
        new TaskHistory(sleeping, List.of(
            new Transition(T0.minusSeconds(5), "new", "sleep", "wait", 0, 0, "bob", "later"))),
        new TaskHistory(paused, List.of()),
        new TaskHistory(done, List.of(
            new Transition(T0.minusSeconds(1), "pay", "ok", "end", 7, 1, "r", ""))),
        new TaskHistory(held, List.of(
            new Transition(T0.minusSeconds(40), "new", "start", "pack", 0, 0, "ann", ""))));
  }

  @Test
  void restoredTasksReadBackAsGivenWithTheirHistoriesWithoutLeasesAndSurviveReopen() {
    List<TaskHistory> given = restorable();
    store.restore(given);
    reopen();

    for (TaskHistory h : given) {
      assertThat(store.get(h.task().id())).as(h.task().id()).contains(h.task().withLease(null));
      assertThat(store.history(h.task().id())).as(h.task().id()).isEqualTo(h.history());
    }
    assertThat(ids(TaskQuery.all(100)))
        .containsExactly("r-done", "r-held", "r-paused", "r-run", "r-sleep");
    assertThat(store.counts()).contains(
        new TaskCount("refund", "end", TaskStatus.COMPLETED, 1),
        new TaskCount("order", "pack", TaskStatus.RUNNABLE, 2));
  }

  @Test
  void restoredTasksAreClaimedByTheirDueAndTheirHistoriesGrowFromWhereTheyEnded() {
    store.restore(restorable());
    reopen();

    assertThat(store.nextDue()).contains(T0.minusSeconds(40));
    List<Task> first = store.claim("r1", 10, T0, Duration.ofMinutes(5));
    assertThat(first).extracting(Task::id).containsExactly("r-held", "r-run");
    assertThat(store.claim("r1", 10, T0.plusSeconds(60), LEASE)).extracting(Task::id)
        .containsExactly("r-sleep");
    Task run = first.get(1);
    store.record("r1", moved(run, "ship", T0.plusSeconds(1), "r1", null));
    reopen();
    assertThat(store.history("r-run")).extracting(Transition::to)
        .containsExactly("pack", "pack", "ship");
  }

  @Test
  void aRestoreWithATakenOrRepeatedIdWritesNothing() {
    store.create(List.of(runnable("r-sleep", T0)));
    List<TaskHistory> given = restorable();
    assertThatThrownBy(() -> store.restore(given)).isInstanceOf(TaskExistsException.class)
        .satisfies(e -> assertThat(((TaskExistsException) e).id()).isEqualTo("r-sleep"));
    TaskHistory twice = given.get(0);
    assertThatThrownBy(() -> store.restore(List.of(given.get(3), twice, twice)))
        .isInstanceOf(TaskExistsException.class)
        .satisfies(e -> assertThat(((TaskExistsException) e).id()).isEqualTo("r-run"));
    reopen();

    assertThat(ids(TaskQuery.all(100))).containsExactly("r-sleep");
    assertThat(store.history("r-sleep")).isEmpty();
    store.restore(List.of());
    assertThat(ids(TaskQuery.all(100))).containsExactly("r-sleep");
  }

  @Test
  void restoredTerminalTasksArePurgedAndAPurgedIdCanBeRestored() {
    store.restore(restorable());
    assertThat(total(purgeAll(PurgeQuery.olderThan(Duration.ofDays(1))))).isEqualTo(1);
    assertThat(store.get("r-done")).isEmpty();
    TaskHistory again = restorable().get(3);
    store.restore(List.of(again));
    reopen();
    assertThat(store.get("r-done")).contains(again.task());
    assertThat(store.history("r-done")).isEqualTo(again.history());
  }

  private static RunnerRecord runner(String id, Instant started, Instant seen) {
    return new RunnerRecord(id, "host-" + id.length(), 1200 + id.length(), 4,
        List.of("refund", "order"), started, seen, 3, 12.5, false);
  }

  @Test
  void aRunnerRecordReadsBackAsWrittenAndAnUpdateReplacesIt() {
    assertThat(store.runners(T0.minusSeconds(3600))).isEmpty();
    RunnerRecord first = runner("runner:1@a", T0, T0);
    store.runnerSeen(first);
    reopen();
    assertThat(store.runners(T0.minusSeconds(60))).containsExactly(first);
    assertThat(first.machines()).as("sorted").containsExactly("order", "refund");

    RunnerRecord later = first.seenAt(T0.plusSeconds(2), 7, 0.25);
    store.runnerSeen(later);
    reopen();
    assertThat(store.runners(T0.minusSeconds(60))).containsExactly(later);
    assertThat(later.status(T0.plusSeconds(3))).isEqualTo(RunnerRecord.Status.RUNNING);
    assertThat(later.status(T0.plusSeconds(60))).isEqualTo(RunnerRecord.Status.GONE);
  }

  @Test
  void runnersSeenBeforeTheGivenTimeAreLeftOutAndTheRestComeOldestStartFirst() {
    RunnerRecord old = runner("runner:1@a", T0.minusSeconds(7200), T0.minusSeconds(600));
    RunnerRecord young = runner("runner:22@b", T0.minusSeconds(5), T0);
    RunnerRecord elder = new RunnerRecord("runner:333@c", "c", 333, 1, List.of(),
        T0.minusSeconds(60), T0.minusSeconds(1), 0, 0, false);
    store.runnerSeen(young);
    store.runnerSeen(old);
    store.runnerSeen(elder);
    reopen();

    assertThat(store.runners(T0.minusSeconds(60))).containsExactly(elder, young);
    assertThat(store.runners(T0.minusSeconds(600))).containsExactly(old, elder, young);
    assertThat(store.runners(T0.plusSeconds(1))).isEmpty();
  }

  @Test
  void aRunnerThatStoppedCleanlySaysSoWhateverTheTime() {
    RunnerRecord running = runner("runner:9@z", T0, T0.plusSeconds(2));
    store.runnerSeen(running);
    RunnerRecord stopped = running.stoppedAt(T0.plusSeconds(3));
    store.runnerSeen(stopped);
    reopen();

    assertThat(store.runners(T0)).containsExactly(stopped);
    assertThat(store.runners(T0).get(0).stopped()).isTrue();
    assertThat(stopped.held()).isZero();
    assertThat(stopped.status(T0.plusSeconds(3))).isEqualTo(RunnerRecord.Status.STOPPED);
    assertThat(stopped.status(T0.plusSeconds(600))).isEqualTo(RunnerRecord.Status.STOPPED);
  }

  private static final String RUNNER = "runner:7@h/w1";

  private static Transition entry(int second, String from, String event, String to, String by,
      String reason) {
    return new Transition(T0.plusSeconds(second), from, event, to, 10, 1, by, reason);
  }

  private static TaskHistory withHistory(String id, String machine, Transition... entries) {
    return new TaskHistory(task(id, machine, "ship", TaskStatus.RUNNABLE, T0),
        List.of(entries));
  }

  private List<ErrorEntry> errors(int sinceSecond, String machine, String state) {
    List<ErrorEntry> found = new ArrayList<>();
    store.errors(new ErrorQuery(T0.plusSeconds(sinceSecond), Optional.ofNullable(machine),
        Optional.ofNullable(state)), found::add);
    found.sort(Comparator.comparing((ErrorEntry e) -> e.entry().time())
        .thenComparing(ErrorEntry::taskId));
    return found;
  }

  private static String said(ErrorEntry e) {
    return e.taskId() + "/" + e.machine() + "/" + e.entry().from() + "/" + e.entry().reason();
  }

  @Test
  void errorsAreTheAttemptErrorsSinceATimeOfAMachineAndState() {
    store.restore(List.of(
        withHistory("t1", "order",
            entry(-100, "pack", "error", "pack", RUNNER, "too old"),
            entry(1, "pack", "ok", "ship", RUNNER, ""),
            entry(10, "ship", "error", "ship", RUNNER, "retried"),
            entry(20, "ship", "timeout", "caught", RUNNER, "timed out after 30s"),
            entry(30, "caught", "error", "caught", "user:ann", "an operator's error command"),
            entry(35, "caught", "sleep", "caught", RUNNER, "the action asked to sleep 1m"),
            entry(40, "pay", "exhausted", "review", RUNNER, "gave up")),
        withHistory("t2", "refund",
            entry(5, "ship", "error", "ship", RUNNER, "card declined"),
            entry(50, "pay", "error", "pay", RUNNER, "no funds")),
        withHistory("t3", "order")));
    reopen();

    assertThat(errors(0, null, null)).extracting(StoreContractTest::said).containsExactly(
        "t2/refund/ship/card declined", "t1/order/ship/retried",
        "t1/order/ship/timed out after 30s", "t1/order/pay/gave up", "t2/refund/pay/no funds");
    assertThat(errors(0, "order", null)).extracting(StoreContractTest::said).containsExactly(
        "t1/order/ship/retried", "t1/order/ship/timed out after 30s", "t1/order/pay/gave up");
    assertThat(errors(0, null, "ship")).extracting(StoreContractTest::said).containsExactly(
        "t2/refund/ship/card declined", "t1/order/ship/retried",
        "t1/order/ship/timed out after 30s");
    assertThat(errors(0, "refund", "pay")).extracting(StoreContractTest::said)
        .containsExactly("t2/refund/pay/no funds");
    assertThat(errors(20, null, null)).extracting(StoreContractTest::said).containsExactly(
        "t1/order/ship/timed out after 30s", "t1/order/pay/gave up", "t2/refund/pay/no funds");
    assertThat(errors(51, null, null)).isEmpty();
    assertThat(errors(0, "nope", null)).isEmpty();
    assertThat(errors(-100, null, null).get(0).entry())
        .isEqualTo(entry(-100, "pack", "error", "pack", RUNNER, "too old"));
  }

  @Test
  void anErrorStaysAfterItsTaskIsRedrivenAndGoesWithAPurge() {
    store.create(List.of(runnable("t1", T0)));
    Task claimed = store.claim(RUNNER, 1, T0, LEASE).get(0);
    Task failed = new Task("t1", "order", claimed.version(), "ship", TaskStatus.FAILED, "{}", 1,
        List.of(new TaskError(T0.plusSeconds(1), "carrier down")), T0, T0, T0, null, null);
    store.record(RUNNER, new Change(failed,
        entry(1, "ship", "error", "ship", RUNNER, "carrier down; gave up")));
    store.update("t1", t -> new Change(new Task("t1", "order", t.version(), "ship",
        TaskStatus.RUNNABLE, "{}", 0, List.of(), T0, T0, T0, T0.plusSeconds(2), null),
        entry(2, "ship", "redrive", "ship", "user:ann", "fixed the carrier")));
    reopen();

    assertThat(store.get("t1").orElseThrow().errors()).isEmpty();
    assertThat(errors(0, null, null)).extracting(StoreContractTest::said)
        .containsExactly("t1/order/ship/carrier down; gave up");

    store.update("t1", t -> new Change(new Task("t1", "order", t.version(), "end",
        TaskStatus.COMPLETED, "{}", 0, List.of(), T0, T0.plusSeconds(3), T0, null, null),
        entry(3, "ship", "ok", "end", RUNNER, "")));
    assertThat(total(purgeAll(PurgeQuery.olderThan(Duration.ofDays(1))))).isEqualTo(1);
    assertThat(errors(0, null, null)).isEmpty();
  }

  @Test
  void errorsOfManyTasksAreAllRead() {
    List<TaskHistory> many = new ArrayList<>();
    for (int i = 0; i < 1_234; i++) {
      List<Transition> h = new ArrayList<>();
      // Forty entries: three chunks of an embedded history, the errors in the first and last.
      for (int e = 0; e < 40; e++) {
        boolean error = e == 0 || e == 39;
        h.add(entry(e, "ship", error ? "error" : "checkpoint", "ship", RUNNER,
            error ? "e" + e : ""));
      }
      many.add(new TaskHistory(task(String.format("m-%05d", i), i % 2 == 0 ? "order" : "refund",
          "ship", TaskStatus.RUNNABLE, T0), h));
      // In batches, as an import goes: one change of the embedded store has a size limit.
      if (many.size() == 200 || i == 1_233) {
        store.restore(many);
        many.clear();
      }
    }
    reopen();

    assertThat(errors(0, null, null)).hasSize(2 * 1_234);
    assertThat(errors(1, null, null)).hasSize(1_234).allMatch(e -> e.entry().reason()
        .equals("e39"));
    assertThat(errors(0, "refund", null)).hasSize(1_234)
        .allMatch(e -> e.machine().equals("refund"));
  }
}

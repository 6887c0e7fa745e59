package dev.fsm.store.embedded;

import static dev.fsm.store.embedded.Workload.LEASE;
import static dev.fsm.store.embedded.Workload.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.store.LeaseLostException;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.embedded.journal.JournalOptions;
import dev.fsm.store.embedded.journal.JournalStats;
import dev.fsm.store.embedded.recovery.CleanMarker;
import dev.fsm.task.Change;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Concurrent changes share fsyncs; a change is one journal record or refused; leases split. */
class EmbeddedStoreWritePathTest {

  private static final EmbeddedStoreOptions SMALL_RECORDS = EmbeddedStoreOptions.defaults()
      .journal(JournalOptions.defaults().maxRecordBytes(8 * 1024));

  @TempDir Path dir;

  @Test
  void concurrentChangesShareFsyncs() throws Exception {
    try (EmbeddedStore store = EmbeddedStore.open(dir)) {
      List<Task> tasks = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        tasks.add(Workload.task("t" + i));
      }
      store.create(tasks);
      JournalStats before = store.journal().stats();
      ExecutorService pool = Executors.newFixedThreadPool(8);
      try {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (Task t : tasks) {
          done.add(pool.submit(() -> {
            start.await();
            for (int n = 0; n < 50; n++) {
              store.update(t.id(), current -> counted(current));
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
      JournalStats after = store.journal().stats();
      assertThat(after.records() - before.records()).isEqualTo(400);
      assertThat(after.batches() - before.batches()).as("group commits").isLessThan(400);
      assertThat(store.get("t3").orElseThrow().attempt()).isEqualTo(50);
    }
  }

  @Test
  void manyWritersRecordingOneByOneAreEachAppliedOnceAndARefusalIsTheirOwn() throws Exception {
    int writers = 32;
    int rounds = 20;
    Map<String, AtomicInteger> recorded = new ConcurrentHashMap<>();
    try (EmbeddedStore store = EmbeddedStore.open(dir)) {
      List<Task> tasks = new ArrayList<>();
      for (int i = 0; i < writers * 4; i++) {
        tasks.add(Workload.task(String.format("c-%03d", i)));
      }
      store.create(tasks);
      JournalStats before = store.journal().stats();
      ExecutorService pool = Executors.newFixedThreadPool(writers + 1);
      try {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> done = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
          String owner = "w" + w;
          done.add(pool.submit(() -> {
            start.await();
            for (int r = 0; r < rounds; r++) {
              for (Task t : store.claim(owner, 2, NOW, LEASE)) {
                store.record(owner, toggled(t, owner));
                recorded.computeIfAbsent(t.id(), id -> new AtomicInteger()).incrementAndGet();
              }
            }
            return 0;
          }));
        }
        // Records tasks it never claimed, among the others' appends: refused, to it alone.
        done.add(pool.submit(() -> {
          start.await();
          int refused = 0;
          for (int r = 0; r < rounds * 2; r++) {
            Task t = tasks.get(r % tasks.size());
            try {
              store.record("thief", toggled(t, "thief"));
            } catch (LeaseLostException e) {
              refused++;
            }
          }
          return refused;
        }));
        start.countDown();
        for (int w = 0; w < writers; w++) {
          assertThat(done.get(w).get(60, TimeUnit.SECONDS)).isZero();
        }
        assertThat(done.get(writers).get(60, TimeUnit.SECONDS)).isEqualTo(rounds * 2);
      } finally {
        pool.shutdownNow();
      }
      int total = recorded.values().stream().mapToInt(AtomicInteger::get).sum();
      assertThat(total).isPositive();
      JournalStats after = store.journal().stats();
      assertThat(after.records() - before.records()).isEqualTo(total);
      assertThat(after.batches() - before.batches()).as("group commits").isLessThan(total);
      for (Task t : tasks) {
        int n = recorded.getOrDefault(t.id(), new AtomicInteger()).get();
        assertThat(store.history(t.id())).as(t.id()).hasSize(n);
        assertThat(store.get(t.id()).orElseThrow().state()).isEqualTo(n % 2 == 0 ? "ship"
            : "pack");
      }
    }
  }

  @Test
  void writersRecordingWhileTheStoreClosesEachHearDurableOrClosedAndNothingAcknowledgedIsLost()
      throws Exception {
    int writers = 16;
    Map<String, AtomicInteger> acknowledged = new ConcurrentHashMap<>();
    List<Task> tasks = new ArrayList<>();
    for (int i = 0; i < writers * 2; i++) {
      tasks.add(Workload.task(String.format("k-%03d", i)));
    }
    EmbeddedStore store = EmbeddedStore.open(dir);
    store.create(tasks);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<Future<Throwable>> ends = new ArrayList<>();
    try {
      CountDownLatch going = new CountDownLatch(writers);
      for (int w = 0; w < writers; w++) {
        String owner = "w" + w;
        ends.add(pool.submit(() -> {
          going.countDown();
          try {
            while (true) {
              for (Task t : store.claim(owner, 2, NOW, LEASE)) {
                store.record(owner, toggled(t, owner));
                acknowledged.computeIfAbsent(t.id(), id -> new AtomicInteger())
                    .incrementAndGet();
              }
            }
          } catch (RuntimeException e) {
            return e;
          }
        }));
      }
      going.await();
      while (store.journal().stats().records() < 200) {
        Thread.onSpinWait();
      }
      store.close();
      for (Future<Throwable> end : ends) {
        assertThat(end.get(60, TimeUnit.SECONDS)).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("is closed");
      }
    } finally {
      pool.shutdownNow();
    }
    try (EmbeddedStore reopened = EmbeddedStore.open(dir)) {
      assertThat(reopened.openReport().rebuilt()).as("closed cleanly").isFalse();
      for (Task t : tasks) {
        int n = acknowledged.getOrDefault(t.id(), new AtomicInteger()).get();
        assertThat(reopened.history(t.id())).as(t.id()).hasSize(n);
      }
    }
  }

  @Test
  void aChangeTooLargeForOneRecordIsRefusedAndChangesNothing() {
    try (EmbeddedStore store = EmbeddedStore.open(dir, SMALL_RECORDS)) {
      List<Task> many = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        many.add(withContext(Workload.task(String.format("m-%03d", i)), 200));
      }
      assertThatThrownBy(() -> store.create(many)).isInstanceOf(FsmException.class)
          .hasMessageStartingWith("cannot create these 100 tasks at once in store " + dir
              + ": that change takes ")
          .hasMessageEndingWith(" bytes, over the journal's limit of 8192 bytes for one change;"
              + " create them in smaller batches.");
      assertThat(store.list(TaskQuery.all(10))).isEmpty();
      assertThat(store.counts()).isEmpty();

      store.create(List.of(Workload.task("a")));
      assertThatThrownBy(() -> store.update("a", t -> new Change(withContext(t, 9000),
          new Transition(T0, "ship", "ok", "ship", 0, 0, "ann", ""))))
          .isInstanceOf(FsmException.class)
          .hasMessageStartingWith("cannot record this change of task `a` in store ")
          .hasMessageEndingWith("; keep the task's context under 1 MiB.");
      assertThat(store.get("a")).contains(Workload.task("a"));
      assertThat(store.history("a")).isEmpty();
    }
  }

  @Test
  void leasesLiveOnTheHeapAndNeverReachTheDisk() throws Exception {
    List<Task> big = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      big.add(withContext(Workload.task(String.format("b-%02d", i)), 1000));
    }
    try (EmbeddedStore store = EmbeddedStore.open(dir, SMALL_RECORDS)) {
      for (int i = 0; i < 40; i += 5) {
        store.create(big.subList(i, i + 5));
      }
      long before = store.journal().lastSequence();
      List<Task> claimed = store.claim("r1", 40, T0, LEASE);
      assertThat(claimed).hasSize(40).allMatch(t -> t.leasedTo("r1", T0));
      assertThat(store.renew("r1", List.of("b-00", "b-01"), T0.plus(LEASE).plus(LEASE)))
          .isEmpty();
      store.awaitDurable();
      assertThat(store.journal().lastSequence()).as("records").isEqualTo(before);
      assertThat(store.list(TaskQuery.all(100))).hasSize(40)
          .allMatch(t -> t.leasedTo("r1", T0.plus(LEASE).minusSeconds(1)));
      assertThat(store.get("b-00").orElseThrow().lease().until())
          .isEqualTo(T0.plus(LEASE).plus(LEASE));
      assertThat(store.claim("r2", 40, T0.plusSeconds(1), LEASE)).isEmpty();
      store.record("r1", counted(claimed.get(2)));
      assertThat(store.journal().lastSequence()).as("records").isEqualTo(before + 1);
    }
    Files.delete(dir.resolve(CleanMarker.FILE));
    try (EmbeddedStore store = EmbeddedStore.open(dir, SMALL_RECORDS)) {
      assertThat(store.openReport().rebuilt()).isTrue();
      assertThat(store.list(TaskQuery.all(100))).noneMatch(t -> t.lease() != null)
          .hasSize(40);
      assertThat(store.claim("r2", 40, T0.plusSeconds(1), LEASE)).as("claimable at once")
          .hasSize(40);
    }
  }

  /** One second after T0, when every task is due and no lease has ended. */
  private static final Instant NOW = T0.plusSeconds(1);

  /** A runner's outcome: the task to its other state, due at once again, its lease released. */
  private static Change toggled(Task t, String by) {
    String next = t.state().equals("ship") ? "pack" : "ship";
    Task after = new Task(t.id(), t.machine(), t.version(), next, TaskStatus.RUNNABLE,
        t.context(), 0, t.errors(), t.created(), NOW, NOW, NOW, null);
    return new Change(after, new Transition(NOW, t.state(), "done", next, 1, 1, by, ""));
  }

  private static Change counted(Task t) {
    Task next = new Task(t.id(), t.machine(), t.version(), t.state(), t.status(), t.context(),
        t.attempt() + 1, t.errors(), t.created(), t.stateEntered(), t.lastAttempt(), t.due(),
        t.lease());
    return new Change(next, new Transition(T0, t.state(), "checkpoint", t.state(), 0,
        t.attempt(), "op", ""));
  }

  private static Task withContext(Task t, int bytes) {
    return new Task(t.id(), t.machine(), t.version(), t.state(), TaskStatus.RUNNABLE,
        "{\"pad\":\"" + "x".repeat(bytes) + "\"}", t.attempt(), t.errors(), t.created(),
        t.stateEntered(), t.lastAttempt(), t.due(), t.lease());
  }
}

package dev.fsm.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.store.PurgeBatch;
import dev.fsm.store.PurgeQuery;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.embedded.check.StoreCheckReport;
import dev.fsm.store.embedded.checkpoint.CheckpointReport;
import dev.fsm.store.embedded.recovery.RebuildProgress;
import dev.fsm.store.embedded.repair.RepairReport;
import dev.fsm.task.Change;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A purge in the embedded store: a rebuild from snapshot and journal tail agrees with the live
 * index however the purge and the checkpoint interleave, and a checkpoint after a purge gives its
 * space back. {@code -Dfsm.purge.tasks=100000} measures with that many tasks.
 */
class EmbeddedPurgeTest {

  private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
  private static final Instant NOW = T0.plus(Duration.ofDays(2));
  private static final String CONTEXT = "{\"pad\":\"" + "x".repeat(180) + "\"}";

  /** The journal as written, segments and all: no checkpoint, not even after a purge. */
  private static final EmbeddedStoreOptions NO_CHECKPOINTS =
      EmbeddedStoreOptions.defaults().checkpointBytes(0);

  @TempDir Path dir;

  @Test
  void aLargePurgeStartsACheckpointThatGivesItsSpaceBack() throws Exception {
    // No checkpoint before: the journal holds every task, the snapshot none.
    Path folder = dir.resolve("store");
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      createFinished(store, 300, 30);
      long before = truth(folder);
      purgeAll(store, PurgeQuery.olderThan(Duration.ofDays(1)));
      store.awaitBackgroundCheckpoint();
      assertThat(Files.exists(folder.resolve("snapshot"))).isTrue();
      assertThat(truth(folder)).isLessThan(before / 5);
    }
  }

  @Test
  void aStoreClosedAsSoonAsItsPurgeEndsGivesTheSpaceBackAllTheSame() throws Exception {
    // fsm purge with no runner: the verb closes the store right after the last batch.
    Path folder = dir.resolve("store");
    long before;
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      createFinished(store, 300, 30);
      before = truth(folder);
      purgeAll(store, PurgeQuery.olderThan(Duration.ofDays(1)));
    }
    assertThat(Files.exists(folder.resolve("snapshot"))).isTrue();
    assertThat(truth(folder)).isLessThan(before / 5);
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      assertClean(store);
    }
  }

  @Test
  void aRebuildAgreesWithTheLiveIndexWhenTheSnapshotStillHoldsWhatTheJournalPurged() {
    Path folder = dir.resolve("store");
    List<Task> before;
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      createFinished(store, 60, 3);
      store.checkpoint();
      purgeAll(store, PurgeQuery.olderThan(Duration.ofDays(1)).batch(7));
      // Ids used again after the purge: the snapshot has their first life, the journal both.
      store.create(List.of(task("t0003", T0.plusSeconds(5)), task("t0004", NOW)));
      finish(store, "t0003", TaskStatus.COMPLETED, NOW);
      before = store.list(TaskQuery.all(1000));
      assertThat(before).extracting(Task::id).containsExactly("t0000", "t0001", "t0002",
          "t0003", "t0004");
      assertClean(store);
    }
    try (EmbeddedStore store = EmbeddedStore.open(folder,
        EmbeddedStoreOptions.defaults().forceRebuild(true))) {
      assertThat(store.openReport().rebuilt()).isTrue();
      assertThat(store.list(TaskQuery.all(1000))).isEqualTo(before);
      assertThat(store.history("t0003")).extracting(Transition::time).containsExactly(NOW);
      assertThat(store.history("t0004")).isEmpty();
      assertClean(store);
      store.checkpoint();
    }
    try (EmbeddedStore store = EmbeddedStore.open(folder,
        EmbeddedStoreOptions.defaults().forceRebuild(true))) {
      assertThat(store.list(TaskQuery.all(1000))).isEqualTo(before);
      assertThat(store.history("t0003")).hasSize(1);
      assertClean(store);
    }
  }

  @Test
  void aCheckpointAfterAPurgeDropsThePurgedTasksFromWhatSurvives() throws Exception {
    int n = Integer.getInteger("fsm.purge.tasks", 4000);
    Path folder = dir.resolve("store");
    long full;
    long purgedBytes;
    long fullTruth;
    long purgedTruth;
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      createFinished(store, n, n / 10);
      CheckpointReport first = store.checkpoint();
      full = bytes(folder);
      fullTruth = truth(folder);
      long maxHeld = 0;
      List<Long> holds = new ArrayList<>();
      long t = System.nanoTime();
      PurgeQuery q = PurgeQuery.olderThan(Duration.ofDays(1));
      long purged = 0;
      while (true) {
        PurgeBatch b = store.purge(q, NOW);
        purged += b.total();
        maxHeld = Math.max(maxHeld, b.held().toNanos());
        holds.add(b.held().toNanos());
        if (b.resumeAfter().isEmpty()) {
          break;
        }
        q = q.after(b.resumeAfter().get());
      }
      long purgeMillis = (System.nanoTime() - t) / 1_000_000;
      assertThat(purged).isEqualTo(n - n / 10);
      long afterPurge = bytes(folder);
      CheckpointReport second = store.checkpoint();
      // The purge's own checkpoint, started at its last batch, finds this one covered it.
      store.awaitBackgroundCheckpoint();
      purgedBytes = bytes(folder);
      purgedTruth = truth(folder);
      System.out.println("files after the checkpoint: " + files(folder));
      assertThat(second.records()).isEqualTo(n / 10);
      assertThat(second.bytes()).isLessThan(first.bytes() / 5);
      holds.sort(null);
      System.out.printf("purge of %d of %d tasks: %d ms in %d batches, lock hold per batch"
          + " median %.2f ms, p99 %.2f ms, longest %.2f ms; bytes on disk: %d before (%d"
          + " journal and snapshot), %d after the purge, %d after a checkpoint (%d journal and"
          + " snapshot)%n", purged, n, purgeMillis, holds.size(),
          holds.get(holds.size() / 2) / 1e6, holds.get(holds.size() * 99 / 100) / 1e6,
          maxHeld / 1e6, full, fullTruth, afterPurge, purgedBytes, purgedTruth);
    }
    try (EmbeddedStore store = EmbeddedStore.open(folder,
        EmbeddedStoreOptions.defaults().forceRebuild(true))) {
      assertThat(store.counts().stream().mapToLong(c -> c.count()).sum())
          .isEqualTo((long) n / 10);
    }
    System.out.printf("after a rebuild of the index: %d bytes (%s)%n", bytes(folder),
        files(folder));
    // The journal and snapshot, the truth, shrink at the checkpoint; the index file keeps its
    // size (MapDB reuses freed space for new tasks) until a rebuild writes it afresh.
    assertThat(purgedTruth).isLessThan(fullTruth / 5);
  }

  @Test
  void purgesAndIdsUsedAgainWhileCheckpointsRunRebuildAsTheLiveIndexHadThem() throws Exception {
    Path folder = dir.resolve("store");
    Map<String, List<Transition>> before = new TreeMap<>();
    try (EmbeddedStore store = EmbeddedStore.open(folder, NO_CHECKPOINTS)) {
      createFinished(store, 3000, 0);
      AtomicBoolean purging = new AtomicBoolean(true);
      AtomicInteger checkpoints = new AtomicInteger();
      Thread checkpointer = new Thread(() -> {
        while (purging.get()) {
          store.checkpoint();
          checkpoints.incrementAndGet();
        }
      });
      checkpointer.start();
      PurgeQuery q = PurgeQuery.olderThan(Duration.ofDays(1)).batch(50);
      int again = 0;
      for (PurgeBatch b = store.purge(q, NOW); ; b = store.purge(q, NOW)) {
        if (b.resumeAfter().isEmpty()) {
          break;
        }
        q = q.after(b.resumeAfter().get());
        // The batch's last id, at once a new task with a history of its own.
        String id = b.resumeAfter().get();
        store.create(List.of(task(id, NOW)));
        finish(store, id, TaskStatus.COMPLETED, NOW);
        again++;
      }
      purging.set(false);
      checkpointer.join();
      assertThat(checkpoints.get()).isPositive();
      for (Task t : store.list(TaskQuery.all(10_000))) {
        before.put(t.id() + " " + t.status() + " " + t.created(), store.history(t.id()));
      }
      assertThat(before).hasSize(again);
      assertClean(store);
    }
    try (EmbeddedStore store = EmbeddedStore.open(folder,
        EmbeddedStoreOptions.defaults().forceRebuild(true))) {
      Map<String, List<Transition>> after = new TreeMap<>();
      for (Task t : store.list(TaskQuery.all(10_000))) {
        after.put(t.id() + " " + t.status() + " " + t.created(), store.history(t.id()));
      }
      assertThat(after).isEqualTo(before);
      assertClean(store);
    }
  }

  @Test
  void aRepairKeepsAPurgeAfterDamageAndReportsNoPurgedTaskAsLost() throws IOException {
    Path store = dir.resolve("store");
    Path crashed = dir.resolve("crashed");
    try (EmbeddedStore s = EmbeddedStore.open(store, NO_CHECKPOINTS)) {
      // Records: 1 registers, 2-11 create t-00 to t-09, 12 and 13 finish t-03 and t-04, 14
      // purges both, 15 creates t-03 again.
      s.register("order", "machine: order\n", T0);
      for (int i = 0; i < 10; i++) {
        s.create(List.of(task(String.format("t-%02d", i), T0)));
      }
      finish(s, "t-03", TaskStatus.COMPLETED, T0);
      finish(s, "t-04", TaskStatus.FAILED, T0);
      purgeAll(s, PurgeQuery.olderThan(Duration.ofDays(1)));
      s.create(List.of(task("t-03", NOW)));
      Workload.copyFolder(store, crashed);
    }
    Path segment = Workload.lastSegment(crashed);
    StoreRepairTest.flip(segment, StoreRepairTest.frames(segment).get(9L) + 5);  // t-07's CRC

    RepairReport r = StoreRepair.run(crashed, EmbeddedStoreOptions.defaults(), NOW);
    assertThat(r.lostTasks()).extracting(RepairReport.LostTask::id).containsExactly("t-07");
    try (EmbeddedStore s = EmbeddedStore.open(crashed)) {
      assertThat(s.get("t-04")).isEmpty();
      assertThat(s.get("t-03").orElseThrow().created()).isEqualTo(NOW);
      assertThat(s.history("t-03")).isEmpty();
      assertThat(s.list(TaskQuery.all(100))).hasSize(8);
      assertClean(s);
    }
  }

  @Test
  void aDamagedPurgeRecordIsNamedInTheRepairReport() throws IOException {
    Path store = dir.resolve("store");
    Path crashed = dir.resolve("crashed");
    try (EmbeddedStore s = EmbeddedStore.open(store, NO_CHECKPOINTS)) {
      s.register("order", "machine: order\n", T0);
      s.create(List.of(task("t-00", T0), task("t-01", T0)));
      finish(s, "t-00", TaskStatus.COMPLETED, T0);
      finish(s, "t-01", TaskStatus.COMPLETED, T0);
      purgeAll(s, PurgeQuery.olderThan(Duration.ofDays(1)));
      s.create(List.of(task("t-02", NOW)));
      Workload.copyFolder(store, crashed);
    }
    Path segment = Workload.lastSegment(crashed);
    StoreRepairTest.flip(segment, StoreRepairTest.frames(segment).get(5L) + 5);

    RepairReport r = StoreRepair.run(crashed, EmbeddedStoreOptions.defaults(), NOW);
    assertThat(r.damage()).singleElement().extracting(RepairReport.Damaged::readAs)
        .isEqualTo(Optional.of("the purge of 2 finished tasks t-00, t-01"));
    try (EmbeddedStore s = EmbeddedStore.open(crashed)) {
      // The purge is lost, so its tasks are back, whole.
      assertThat(s.list(TaskQuery.all(100))).extracting(Task::id)
          .containsExactly("t-00", "t-01", "t-02");
      assertThat(s.history("t-00")).hasSize(1);
      assertClean(s);
    }
  }

  private static void assertClean(EmbeddedStore store) {
    StoreCheckReport check = StoreCheck.run(store, Duration.ofSeconds(60), RebuildProgress.NONE);
    assertThat(check.matches()).as(check.toString()).isTrue();
  }

  /** {@code n} tasks, the first {@code recent} finished now and the rest two days ago. */
  private static void createFinished(EmbeddedStore store, int n, int recent) {
    List<Task> batch = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      batch.add(task(String.format("t%04d", i), T0));
      if (batch.size() == 1000 || i == n - 1) {
        store.create(batch);
        batch.clear();
      }
    }
    for (int i = 0; i < n; i++) {
      finish(store, String.format("t%04d", i), i % 2 == 0 ? TaskStatus.COMPLETED
          : TaskStatus.FAILED, i < recent ? NOW : T0.plusSeconds(1));
    }
  }

  private static void purgeAll(EmbeddedStore store, PurgeQuery query) {
    PurgeQuery q = query;
    for (PurgeBatch b = store.purge(q, NOW); b.resumeAfter().isPresent();
        b = store.purge(q, NOW)) {
      q = q.after(b.resumeAfter().get());
    }
  }

  private static Task task(String id, Instant at) {
    return new Task(id, "order", "v1", "ship", TaskStatus.RUNNABLE, CONTEXT, 0, List.of(), at,
        at, null, at, null);
  }

  private static void finish(EmbeddedStore store, String id, TaskStatus status, Instant at) {
    store.update(id, t -> new Change(new Task(t.id(), t.machine(), t.version(), "end", status,
        t.context(), 0, t.errors(), t.created(), at, at, null, null),
        new Transition(at, t.state(), "ok", "end", 10, 1, "runner", "")));
  }

  private static String files(Path folder) throws IOException {
    try (Stream<Path> files = Files.walk(folder)) {
      return files.filter(Files::isRegularFile)
          .map(p -> folder.relativize(p) + "=" + p.toFile().length()).toList().toString();
    }
  }

  /** Bytes of the journal and snapshot, without the index. */
  private static long truth(Path folder) throws IOException {
    return bytes(folder) - folder.resolve("index.db").toFile().length();
  }

  private static long bytes(Path folder) throws IOException {
    try (Stream<Path> files = Files.walk(folder)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }
}

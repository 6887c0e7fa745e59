package dev.fsm.store.embedded;

import static dev.fsm.store.embedded.Workload.LEASE;
import static dev.fsm.store.embedded.Workload.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.store.embedded.Workload.Seen;
import dev.fsm.store.embedded.check.StoreCheckReport;
import dev.fsm.store.embedded.checkpoint.CheckpointReport;
import dev.fsm.store.embedded.journal.Journal;
import dev.fsm.store.embedded.journal.JournalOptions;
import dev.fsm.store.embedded.journal.SnapshotFile;
import dev.fsm.store.embedded.recovery.CleanMarker;
import dev.fsm.store.embedded.recovery.RebuildProgress;
import dev.fsm.task.Change;
import dev.fsm.task.Command;
import dev.fsm.task.Commands;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoints write a snapshot and drop the journal segments it covers; a rebuild from snapshot
 * plus journal tail sees exactly what the store held, even when the checkpoint ran while writers
 * worked.
 */
class CheckpointTest {

  @TempDir Path dir;

  @Test
  void aRebuildFromTheSnapshotAndTheJournalTailSeesEverything() throws IOException {
    Path folder = dir.resolve("store");
    Path crashed = dir.resolve("crashed");
    Seen before;
    CheckpointReport report;
    try (EmbeddedStore store = EmbeddedStore.open(folder, small())) {
      Workload.run(store);
      report = store.checkpoint();
      assertThat(report.records()).as("3 versions and 60 tasks").isEqualTo(63);
      assertThat(firstSegmentStart(folder)).isEqualTo(report.lastSequence() + 1);
      store.update("w-45", t -> Commands.apply(t, Command.PAUSE,
          new Commands.Request(null, "after the checkpoint", "ann"), T0.plusSeconds(99)));
      store.create(List.of(Workload.task("late-1"), Workload.task("late-2")));
      before = Workload.read(store);
      Workload.copyFolder(folder, crashed);
    }
    try (EmbeddedStore store = EmbeddedStore.open(crashed)) {
      assertThat(store.openReport().rebuilt()).isTrue();
      assertThat(store.openReport().recordsReplayed())
          .as("the snapshot's records and the journal's two after it").isEqualTo(63 + 2);
      assertThat(store.openReport().summary()).startsWith("index: rebuilt from the snapshot"
          + " and journal because the store was not closed cleanly: 65 records replayed in ");
      assertThat(Workload.read(store)).isEqualTo(Workload.withoutLeases(before));
      assertThat(store.history("w-45")).last().extracting(Transition::reason)
          .isEqualTo("after the checkpoint");
    }
  }

  @Test
  void anIndexBulkBuiltFromASnapshotKeepsWorkingAndMatchesTheJournal() throws IOException {
    Path folder = dir.resolve("store");
    Path crashed = dir.resolve("crashed");
    try (EmbeddedStore store = EmbeddedStore.open(folder, small())) {
      Workload.run(store);
      store.checkpoint();
      Workload.copyFolder(folder, crashed);
    }
    try (EmbeddedStore store = EmbeddedStore.open(crashed)) {
      assertThat(store.openReport().rebuilt()).isTrue();
      List<Task> more = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        more.add(Workload.task(String.format("w-%02d-more-%03d", i % 60, i)));
      }
      store.create(more);
      for (Task t : store.claim("r3", 500, Workload.FAR, LEASE)) {
        store.update(t.id(), current -> Commands.apply(current, Command.SLEEP,
            new Commands.Request(Workload.FAR.plusSeconds(3600), "after a bulk rebuild", "ann"),
            T0.plusSeconds(300)));
      }
    }
    try (EmbeddedStore store = EmbeddedStore.open(crashed)) {
      assertThat(store.openReport().rebuilt()).as("closed cleanly").isFalse();
      StoreCheckReport check = StoreCheck.run(store, java.time.Duration.ofSeconds(30),
          RebuildProgress.NONE);
      assertThat(check.matches()).as("%s", check).isTrue();
      assertThat(check.tasks()).isEqualTo(360);
    }
  }

  @Test
  void aCheckpointTakenWhileWritersWorkLosesNothing() throws Exception {
    Path folder = dir.resolve("store");
    Path rebuilt = dir.resolve("rebuilt");
    Seen before;
    ExecutorService writers = Executors.newFixedThreadPool(4);
    try (EmbeddedStore store = EmbeddedStore.open(folder, small())) {
      AtomicBoolean stop = new AtomicBoolean();
      AtomicInteger changed = new AtomicInteger();
      CountDownLatch started = new CountDownLatch(4);
      List<Future<Integer>> done = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        int writer = w;
        done.add(writers.submit(() -> churn(store, writer, stop, started, changed)));
      }
      started.await();
      int checkpoints = 0;
      while (checkpoints < 5 || changed.get() < 400) {
        store.checkpoint();
        checkpoints++;
      }
      stop.set(true);
      int changes = 0;
      for (Future<Integer> f : done) {
        changes += f.get(60, TimeUnit.SECONDS);
      }
      assertThat(changes).isPositive();
      before = Workload.read(store);
      Workload.copyFolder(folder, rebuilt);
    } finally {
      writers.shutdownNow();
    }
    try (EmbeddedStore store = EmbeddedStore.open(rebuilt)) {
      assertThat(store.openReport().rebuilt()).isTrue();
      assertThat(Workload.read(store)).isEqualTo(Workload.withoutLeases(before));
    }
  }

  @Test
  void backgroundCheckpointsKeepDiskUseNearLiveData() throws IOException {
    Path folder = dir.resolve("store");
    EmbeddedStoreOptions options = small().checkpointBytes(16 << 10);
    Seen before;
    long written;
    try (EmbeddedStore store = EmbeddedStore.open(folder, options)) {
      List<Task> tasks = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        tasks.add(Workload.task("t-" + i));
      }
      store.create(tasks);
      for (int round = 0; round < 60; round++) {
        for (Task t : tasks) {
          store.update(t.id(), current -> Commands.apply(current,
              current.status() == TaskStatus.PAUSED ? Command.RUN : Command.PAUSE,
              new Commands.Request(null, "", "churn"), T0));
        }
      }
      before = Workload.read(store);
      written = store.journal().stats().bytes();
    }
    assertThat(bytesIn(folder.resolve(Journal.FOLDER)))
        .as("the journal holds the changes since a recent checkpoint, not all %d bytes", written)
        .isLessThan(written / 3);
    assertThat(firstSegmentStart(folder)).isGreaterThan(1);
    Path crashed = dir.resolve("crashed");
    Workload.copyFolder(folder, crashed);
    Files.delete(crashed.resolve(CleanMarker.FILE));
    try (EmbeddedStore store = EmbeddedStore.open(crashed)) {
      assertThat(store.openReport().rebuilt()).isTrue();
      assertThat(Workload.read(store)).isEqualTo(before);
      assertThat(store.history("t-7")).hasSize(60);
    }
  }

  @Test
  void aDamagedSnapshotIsReportedByNameAndNothingIsMadeUp() throws IOException {
    Path folder = dir.resolve("store");
    try (EmbeddedStore store = EmbeddedStore.open(folder, small())) {
      Workload.run(store);
      store.checkpoint();
    }
    Files.delete(folder.resolve(CleanMarker.FILE));
    Path snapshot = folder.resolve(SnapshotFile.NAME);
    flipMiddleByte(snapshot);
    assertThatThrownBy(() -> EmbeddedStore.open(folder))
        .isInstanceOf(FsmException.class)
        .hasMessageContaining("snapshot " + snapshot)
        .hasMessageContaining("restore the store folder from a backup");
    assertThatThrownBy(() -> EmbeddedStore.open(folder)).as("the failed open let the folder go")
        .isInstanceOf(FsmException.class).hasMessageContaining("snapshot " + snapshot);
  }

  @Test
  void aRunnerReplacesASnapshotDamagedSinceTheCleanCloseSoACrashLaterLosesNothing()
      throws Exception {
    Path folder = dir.resolve("store");
    try (EmbeddedStore store = EmbeddedStore.open(folder, small())) {
      Workload.run(store);
      store.checkpoint();
    }
    Path snapshot = folder.resolve(SnapshotFile.NAME);
    flipMiddleByte(snapshot);
    List<String> notices = new CopyOnWriteArrayList<>();
    Seen before;
    Path crashed = dir.resolve("crashed");
    try (EmbeddedStore store = EmbeddedStore.open(folder, small().checkSnapshot(notices::add))) {
      assertThat(store.openReport().rebuilt()).as("the clean index is used as is").isFalse();
      store.snapshotCheck().orElseThrow().await();
      assertThat(notices).singleElement().asString()
          .startsWith("warning: snapshot " + snapshot + " has a damaged record")
          .contains("a new snapshot was written from it and nothing is lost");
      before = Workload.read(store);
      Workload.copyFolder(folder, crashed);
    }
    // The copy is the folder a crash leaves: no clean marker, so its open rebuilds the index
    // from the new snapshot and the journal after it.
    assertThat(crashed.resolve(CleanMarker.FILE)).doesNotExist();
    try (EmbeddedStore store = EmbeddedStore.open(crashed)) {
      assertThat(store.openReport().rebuilt()).isTrue();
      assertThat(Workload.read(store)).isEqualTo(before);
    }
  }

  @Test
  void aSoundSnapshotIsCheckedQuietlyAndOnlyWhenTheOpenDidNotReadIt() throws Exception {
    Path folder = dir.resolve("store");
    try (EmbeddedStore store = EmbeddedStore.open(folder, small())) {
      Workload.run(store);
      store.checkpoint();
    }
    List<String> notices = new CopyOnWriteArrayList<>();
    try (EmbeddedStore store = EmbeddedStore.open(folder, small().checkSnapshot(notices::add))) {
      store.snapshotCheck().orElseThrow().await();
    }
    assertThat(notices).isEmpty();
    try (EmbeddedStore store = EmbeddedStore.open(folder, small().forceRebuild(true)
        .checkSnapshot(notices::add))) {
      assertThat(store.snapshotCheck()).as("the rebuild read it").isEmpty();
    }
    try (EmbeddedStore store = EmbeddedStore.open(folder, small())) {
      assertThat(store.snapshotCheck()).as("only a runner checks").isEmpty();
    }
  }

  private static void flipMiddleByte(Path file) throws IOException {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(f.length() / 2);
      int b = f.read();
      f.seek(f.length() / 2);
      f.write(b ^ 0x40);
    }
  }

  private static int churn(EmbeddedStore store, int writer, AtomicBoolean stop,
      CountDownLatch started, AtomicInteger changed) {
    int changes = 0;
    String owner = "writer-" + writer;
    for (int round = 0; !stop.get() || round < 3; round++) {
      List<Task> batch = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        batch.add(Workload.task(owner + "-" + round + "-" + i));
      }
      store.create(batch);
      changes++;
      if (round == 0) {
        started.countDown();
      }
      List<Task> held = new ArrayList<>();
      for (Task t : batch) {
        held.add(store.update(t.id(), current -> new Change(
            current.withLease(new dev.fsm.task.Lease(owner, T0.plus(LEASE))),
            new Transition(T0, current.state(), "claimed", current.state(), 0, 0, owner, ""))));
      }
      for (Task t : held) {
        Task next = new Task(t.id(), t.machine(), t.version(), "done", TaskStatus.COMPLETED,
            "{\"by\":\"" + owner + "\"}", 1, t.errors(), t.created(), T0, T0, null, t.lease());
        store.record(owner, new Change(next,
            new Transition(T0, t.state(), "ok", "done", 5, 1, owner, "")));
        changes += 2;
        changed.addAndGet(2);
      }
    }
    return changes;
  }

  private static EmbeddedStoreOptions small() {
    return EmbeddedStoreOptions.defaults()
        .journal(JournalOptions.defaults().segmentBytes(32 << 10)).checkpointBytes(0);
  }

  private static long firstSegmentStart(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder.resolve(Journal.FOLDER))) {
      String name = files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".log"))
          .sorted().findFirst().orElseThrow();
      return Long.parseLong(name.substring("journal-".length(), name.indexOf('.')));
    }
  }

  private static long bytesIn(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      long total = 0;
      for (Path f : files.toList()) {
        total += Files.size(f);
      }
      return total;
    }
  }
}

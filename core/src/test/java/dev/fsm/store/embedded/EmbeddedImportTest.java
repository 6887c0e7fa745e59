package dev.fsm.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.embedded.check.StoreCheckReport;
import dev.fsm.store.embedded.journal.JournalOptions;
import dev.fsm.store.embedded.recovery.RebuildProgress;
import dev.fsm.store.embedded.repair.RepairReport;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An import ({@link EmbeddedStore#restore}) is one journal record that every reader of the
 * journal understands: a rebuild from the journal alone or over a checkpoint agrees with the live
 * index, and a repair names a damaged import record.
 */
class EmbeddedImportTest {

  private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

  @TempDir Path dir;

  @Test
  void aRebuildFromTheJournalOrACheckpointHasTheImportedTasksAsTheLiveIndexHadThem() {
    Path folder = dir.resolve("store");
    List<Task> before;
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      store.restore(batch(0, 40));
      store.restore(batch(40, 40));
      before = store.list(TaskQuery.all(1000));
      assertClean(store);
    }
    try (EmbeddedStore store = EmbeddedStore.open(folder,
        EmbeddedStoreOptions.defaults().forceRebuild(true))) {
      assertThat(store.openReport().rebuilt()).isTrue();
      assertThat(store.list(TaskQuery.all(1000))).isEqualTo(before);
      assertThat(store.history("t0007")).hasSize(7);
      assertClean(store);
      store.checkpoint();
      store.restore(batch(80, 5));
    }
    try (EmbeddedStore store = EmbeddedStore.open(folder,
        EmbeddedStoreOptions.defaults().forceRebuild(true))) {
      assertThat(store.list(TaskQuery.all(1000))).hasSize(85).startsWith(before.toArray(Task[]::new));
      assertThat(store.history("t0083")).isEqualTo(history("t0083", 3));
      assertClean(store);
    }
  }

  @Test
  void aBatchOverTheJournalsRecordLimitIsRefusedWithAdviceAndWritesNothing() {
    Path folder = dir.resolve("store");
    EmbeddedStoreOptions small = EmbeddedStoreOptions.defaults()
        .journal(JournalOptions.defaults().maxRecordBytes(4096));
    try (EmbeddedStore store = EmbeddedStore.open(folder, small)) {
      assertThatThrownBy(() -> store.restore(batch(0, 60))).isInstanceOf(FsmException.class)
          .hasMessageContaining("cannot import these 60 tasks at once")
          .hasMessageContaining("import them in smaller batches");
      assertThat(store.list(TaskQuery.all(10))).isEmpty();
    }
  }

  @Test
  void aDamagedImportRecordIsNamedInTheRepairReport() throws IOException {
    Path store = dir.resolve("store");
    Path crashed = dir.resolve("crashed");
    try (EmbeddedStore s = EmbeddedStore.open(store,
        EmbeddedStoreOptions.defaults().checkpointBytes(0))) {
      s.restore(batch(0, 5));
      s.restore(batch(5, 2));
      Workload.copyFolder(store, crashed);
    }
    Path segment = Workload.lastSegment(crashed);
    StoreRepairTest.flip(segment, StoreRepairTest.frames(segment).get(1L) + 5);

    RepairReport r = StoreRepair.run(crashed, EmbeddedStoreOptions.defaults(), T0);
    assertThat(r.damage()).singleElement().extracting(RepairReport.Damaged::readAs)
        .isEqualTo(Optional.of("the import of 5 tasks t0000, t0001, t0002, ..."));
    try (EmbeddedStore s = EmbeddedStore.open(crashed)) {
      assertThat(s.list(TaskQuery.all(100))).extracting(Task::id)
          .containsExactly("t0005", "t0006");
      assertThat(s.history("t0006")).isEqualTo(history("t0006", 6));
      assertClean(s);
    }
  }

  private static void assertClean(EmbeddedStore store) {
    StoreCheckReport check = StoreCheck.run(store, Duration.ofSeconds(60), RebuildProgress.NONE);
    assertThat(check.matches()).as(check.toString()).isTrue();
  }

  /** {@code n} tasks from number {@code from}, task i with i history entries (up to 9). */
  private static List<TaskHistory> batch(int from, int n) {
    List<TaskHistory> tasks = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      String id = String.format("t%04d", i);
      TaskStatus status = TaskStatus.values()[i % TaskStatus.values().length];
      Instant due = status.isTerminal() || status == TaskStatus.PAUSED ? null
          : T0.plusSeconds(i);
      tasks.add(new TaskHistory(new Task(id, "order", "v1", "s" + (i % 3), status,
          "{\"i\":" + i + "}", i % 4, List.of(), T0, T0.plusSeconds(i), null, due, null),
          history(id, i % 10)));
    }
    return tasks;
  }

  private static List<Transition> history(String id, int n) {
    List<Transition> entries = new ArrayList<>();
    for (int k = 0; k < n; k++) {
      entries.add(new Transition(T0.plusMillis(k), "s" + k, "e", "s" + (k + 1), k, k, id, ""));
    }
    return entries;
  }
}

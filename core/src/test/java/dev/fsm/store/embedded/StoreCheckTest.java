package dev.fsm.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.fsm.store.embedded.check.Comparison;
import dev.fsm.store.embedded.check.StoreCheckReport;
import dev.fsm.store.embedded.check.StoreCheckReport.Difference;
import dev.fsm.store.embedded.check.StoreCheckReport.Kind;
import dev.fsm.store.embedded.index.IndexFile;
import dev.fsm.store.embedded.index.IndexKeys;
import dev.fsm.store.embedded.index.KeySerializer;
import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.store.embedded.recovery.RebuildProgress;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.mapdb.DB;
import org.mapdb.Serializer;

/** The check finds nothing in a sound store and names what differs in a tampered one. */
class StoreCheckTest {

  private static final Duration LIMIT = Duration.ofSeconds(30);

  @TempDir Path dir;

  @Test
  void aSoundStoreMatchesItsJournalAndLeavesNoFileBehind() {
    Path folder = dir.resolve("store");
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      Workload.run(store);
    }
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      List<Long> progress = new ArrayList<>();
      StoreCheckReport report =
          StoreCheck.run(store, LIMIT, (done, total) -> progress.add(done));
      assertThat(report.matches()).as("%s", report).isTrue();
      assertThat(report.tasks()).isEqualTo(60);
      assertThat(report.recordsReplayed()).isEqualTo(store.journal().lastSequence());
      assertThat(progress).last().isEqualTo(report.recordsReplayed());
      // due, groups, counts, created, tasks, history, versions
      assertThat(report.collectionsCompared()).isEqualTo(7);
      assertThat(report.entriesCompared()).isGreaterThan(60 + 60 + 12);
      assertThat(report.differences()).isEmpty();
      assertThat(folder.resolve(StoreCheck.FILE)).doesNotExist();
      assertThat(store.get("w-00")).as("the store stays usable").isPresent();
    }
  }

  @Test
  void anIndexChangedBehindTheStoresBackIsReportedEntryByEntry() {
    Path folder = dir.resolve("store");
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      Workload.run(store);
    }
    DB db = IndexFile.open(folder.resolve(TaskIndex.FILE)).db();
    try {
      var tasks = db.treeMap("tasks", KeySerializer.INSTANCE, Serializer.BYTE_ARRAY).open();
      byte[] key = IndexKeys.id("w-05");
      Task t = TaskIndex.decode(key, tasks.get(key));
      tasks.put(key, TaskIndex.encode(new Task(t.id(), t.machine(), t.version(),
          "forged", TaskStatus.COMPLETED, t.context(), t.attempt(), t.errors(), t.created(),
          t.stateEntered(), t.lastAttempt(), t.due(), t.lease())));
    } finally {
      db.close();
    }
    assertThat(StoreCheck.holdsStore(folder)).isTrue();
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      assertThat(store.openReport().rebuilt()).as("the cheap check does not notice").isFalse();
      StoreCheckReport report = StoreCheck.run(store, LIMIT, RebuildProgress.NONE);
      assertThat(report.matches()).isFalse();
      assertThat(report.journalProblem()).isEmpty();
      assertThat(report.differences()).extracting(Difference::collection, Difference::key,
          Difference::kind).containsExactly(tuple("tasks", "w-05", Kind.DIFFERENT_VALUE));
      Difference forged = report.differences().stream()
          .filter(d -> d.key().equals("w-05")).findFirst().orElseThrow();
      assertThat(forged.detail()).isEqualTo("state: index forged, journal bill;"
          + " status: index COMPLETED, journal RUNNABLE");
    }
    assertThat(Files.exists(folder.resolve(StoreCheck.FILE))).isFalse();
  }

  @Test
  void aForcedRebuildRepairsWhatTheCheckFound() {
    Path folder = dir.resolve("store");
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      Workload.run(store);
    }
    DB db = IndexFile.open(folder.resolve(TaskIndex.FILE)).db();
    try {
      db.treeMap("history", KeySerializer.INSTANCE, KeySerializer.INSTANCE).open().clear();
    } finally {
      db.close();
    }
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      StoreCheckReport report = StoreCheck.run(store, LIMIT, RebuildProgress.NONE);
      assertThat(report.differencesFound()).isEqualTo(16);
      assertThat(report.differences()).hasSize(Comparison.KEPT)
          .allMatch(d -> d.collection().equals("history") && d.kind() == Kind.MISSING_IN_INDEX);
    }
    try (EmbeddedStore store =
        EmbeddedStore.open(folder, EmbeddedStoreOptions.defaults().forceRebuild(true))) {
      assertThat(StoreCheck.run(store, LIMIT, RebuildProgress.NONE).matches()).isTrue();
    }
  }
}

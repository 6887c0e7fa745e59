package dev.fsm.operations;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.OperatorListener;
import dev.fsm.store.RunnerRecord;
import dev.fsm.store.RunnerRecord.Status;
import dev.fsm.store.Store;
import dev.fsm.store.embedded.EmbeddedStore;
import dev.fsm.store.memory.InMemoryStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link StoreOperations#runners}: runners judged by the store's time, except that a store one
 * process owns knows an earlier owner's runner that did not stop cleanly has ended.
 */
class RunnersReportTest {

  private static final Instant NOW = Instant.parse("2026-11-25T07:00:00Z");
  private static final long SELF = ProcessHandle.current().pid();

  @TempDir Path dir;

  private static final RunnerRecord MINE = record("runner:" + SELF + "@h", SELF, NOW, false);
  private static final RunnerRecord CRASHED_NOW = record("runner:1@h", 1, NOW.minusSeconds(1),
      false);
  private static final RunnerRecord CRASHED_LONG_AGO = record("runner:2@h", 2,
      NOW.minusSeconds(600), false);
  private static final RunnerRecord STOPPED = record("runner:3@h", 3, NOW.minusSeconds(1), true);
  private static final RunnerRecord FORGOTTEN = record("runner:4@h", 4,
      NOW.minusSeconds(3601), false);

  @Test
  void aSharedStoreJudgesEveryRunnerByTheStoresTimeAndLeavesOutThoseOfMoreThanAnHourAgo() {
    try (InMemoryStore store = new InMemoryStore()) {
      RunnerReport report = report(store);
      assertThat(report.at()).isEqualTo(NOW);
      assertThat(report.runners()).extracting(RunnerRecord::id).containsExactly("runner:1@h",
          "runner:2@h", "runner:3@h", MINE.id());
      assertThat(report.runners()).extracting(report::status).containsExactly(Status.RUNNING,
          Status.GONE, Status.STOPPED, Status.RUNNING);
      assertThat(report.live()).extracting(RunnerRecord::id)
          .containsExactly("runner:1@h", MINE.id());
    }
  }

  @Test
  void aStoreOneProcessOwnsKnowsThatOtherProcessesRunnersEndedHoweverRecentlySeen() {
    try (EmbeddedStore store = EmbeddedStore.open(dir.resolve("store"))) {
      RunnerReport report = report(store);
      assertThat(report.runners()).extracting(report::status).containsExactly(Status.GONE,
          Status.GONE, Status.STOPPED, Status.RUNNING);
      assertThat(report.live()).containsExactly(MINE);
      assertThat(report.ended()).containsExactlyInAnyOrder("runner:1@h", "runner:2@h");
    }
  }

  private RunnerReport report(Store store) {
    for (RunnerRecord r : List.of(MINE, CRASHED_NOW, CRASHED_LONG_AGO, STOPPED, FORGOTTEN)) {
      store.runnerSeen(r);
    }
    return new StoreOperations(store, new MachineLibrary(store, dir),
        Clock.fixed(NOW, ZoneOffset.UTC), "user:ann", OperatorListener.NONE, false).runners();
  }

  /** Runners started in the order of their pids, each an hour before now plus its pid. */
  private static RunnerRecord record(String id, long pid, Instant seen, boolean stopped) {
    Instant started = NOW.minusSeconds(3600 * 2).plusSeconds(pid == SELF ? 3600 : pid);
    return new RunnerRecord(id, "h", pid, 1, List.of(), started, seen, 0, 0, stopped);
  }
}

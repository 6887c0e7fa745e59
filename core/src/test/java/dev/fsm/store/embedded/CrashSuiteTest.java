package dev.fsm.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.task.Task;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a real writer process with SIGKILL at random moments, hundreds of times, reusing each
 * store folder across many kills so damage accumulates, and proves after every kill: each
 * acknowledged change is there, no unacknowledged one is half there, the store opens in bounded
 * time, every runnable task is claimable at once, and after a clean close the index equals a
 * rebuild from the journal.
 */
class CrashSuiteTest {

  /** Two writers at once keep both cores busy while the other lane verifies. */
  private static final int LANES = 2;
  private static final int KILLS_PER_LANE = Integer.getInteger("fsm.crash.kills", 100);
  private static final int KILLS_PER_FOLDER = 25;
  private static final Duration OPEN_BOUND = Duration.ofSeconds(20);
  private static final long SEED = Long.getLong("fsm.crash.seed", 20261121L);

  @TempDir Path dir;

  /** What one lane saw, to show that kills landed both early and deep. */
  record Tally(int kills, int early, int midCheckpoint, int landedUnacknowledged,
      int rebuiltAtOpen) {}

  @Test
  void everyAcknowledgedChangeSurvivesHundredsOfKills() throws Exception {
    ExecutorService lanes = Executors.newFixedThreadPool(LANES);
    try {
      List<Future<Tally>> running = new java.util.ArrayList<>();
      for (int lane = 0; lane < LANES; lane++) {
        int n = lane;
        running.add(lanes.submit(() -> lane(n)));
      }
      int kills = 0;
      int early = 0;
      int midCheckpoint = 0;
      int landed = 0;
      for (Future<Tally> f : running) {
        Tally t = get(f);
        kills += t.kills();
        early += t.early();
        midCheckpoint += t.midCheckpoint();
        landed += t.landedUnacknowledged();
        // A writer killed before it took the store leaves the index as the test closed it.
        assertThat(t.rebuiltAtOpen()).as("reopens after a kill that rebuilt")
            .isGreaterThanOrEqualTo(t.kills() - t.early());
      }
      assertThat(kills).isGreaterThanOrEqualTo(200);
      assertThat(early).as("kills while the writer opens the store").isGreaterThan(20);
      assertThat(midCheckpoint).as("kills while a checkpoint was being taken").isGreaterThan(20);
      assertThat(landed).as("changes durable but killed before their ack").isPositive();
    } finally {
      lanes.shutdownNow();
    }
  }

  private Tally lane(int lane) throws Exception {
    Random random = new Random(SEED + lane);
    Path errors = dir.resolve("writer-" + lane + ".err");
    Files.createFile(errors);
    int early = 0;
    int midCheckpoint = 0;
    int landed = 0;
    int rebuilt = 0;
    CrashModel model = null;
    Path folder = null;
    for (int kill = 0; kill < KILLS_PER_LANE; kill++) {
      if (kill % KILLS_PER_FOLDER == 0) {
        folder = dir.resolve("lane" + lane + "-store" + kill / KILLS_PER_FOLDER);
        model = new CrashModel();
      }
      CrashRun.Lines run = CrashRun.killAtRandom(folder, kill, random, errors);
      early += run.how().contains("open") ? 1 : 0;
      midCheckpoint += run.how().endsWith("mid-checkpoint") ? 1 : 0;
      try (EmbeddedStore store = openBounded(folder)) {
        rebuilt += store.openReport().rebuilt() ? 1 : 0;
        landed += model.verify(store, run.lines(), run.how());
        List<Task> claimed = store.claim("next-owner", Integer.MAX_VALUE, CrashWriter.NOW,
            CrashWriter.LEASE);
        assertThat(claimed).extracting(Task::id).as("claimable at once after a writer %s",
            run.how()).containsExactlyInAnyOrderElementsOf(model.runnable());
      }
      try (EmbeddedStore store = openBounded(folder)) {
        assertThat(store.openReport().rebuilt()).as("closed cleanly").isFalse();
        StoreCheckReport check = StoreCheck.run(store, OPEN_BOUND, RebuildProgress.NONE);
        assertThat(check.matches()).as("%s after a writer %s", check, run.how()).isTrue();
      }
    }
    return new Tally(KILLS_PER_LANE, early, midCheckpoint, landed, rebuilt);
  }

  private static EmbeddedStore openBounded(Path folder) throws Exception {
    return TimeBound.call("crash-suite-open", OPEN_BOUND, () -> EmbeddedStore.open(folder),
        EmbeddedStore::close);
  }

  private static Tally get(Future<Tally> f) throws Exception {
    try {
      return f.get(10, TimeUnit.MINUTES);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw e;
    }
  }
}

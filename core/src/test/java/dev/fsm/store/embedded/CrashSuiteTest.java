package dev.fsm.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.store.embedded.check.StoreCheckReport;
import dev.fsm.store.embedded.recovery.RebuildProgress;
import dev.fsm.store.embedded.recovery.TimeBound;
import dev.fsm.task.Task;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a real writer process with SIGKILL at random moments, hundreds of times, reusing each
 * store folder across many kills so damage accumulates, and proves after every kill: each
 * acknowledged change is there, no unacknowledged one is half there, the store opens in bounded
 * time, every runnable task is claimable at once, and after a clean close the index equals a
 * rebuild from the journal. Most writers run under induced load and a third of the kills aim at
 * a checkpoint's boundaries (see {@link CrashRun}), where issue 15's torn task came from.
 *
 * <p>{@code -Dfsm.crash.kills=N} sets the kills per lane (20 in {@code mvn verify}; 1000 for
 * the long run of docs/embedded-store.md), {@code -Dfsm.crash.seed} the seed. The figures are
 * printed at the end, and every 100 kills of a lane on the way. Ordered first: the longest class.
 */
@Order(1)
class CrashSuiteTest {

  /** Two writers at once keep both cores busy while the other lane verifies. */
  private static final int LANES = 2;
  private static final int KILLS_PER_LANE = Integer.getInteger("fsm.crash.kills", 20);
  /** A long run prints its figures so far this often, per lane. */
  private static final int PROGRESS_EVERY = 100;
  private static final int KILLS_PER_FOLDER = 25;
  private static final Duration OPEN_BOUND = Duration.ofSeconds(20);
  private static final long SEED = Long.getLong("fsm.crash.seed", 20261121L);

  @TempDir Path dir;

  @Test
  void everyAcknowledgedChangeSurvivesHundredsOfKills() throws Exception {
    long started = System.nanoTime();
    ExecutorService lanes = Executors.newFixedThreadPool(LANES);
    CrashTally total = new CrashTally();
    try {
      List<Future<CrashTally>> running = new ArrayList<>();
      for (int lane = 0; lane < LANES; lane++) {
        int n = lane;
        running.add(lanes.submit(() -> lane(n)));
      }
      for (Future<CrashTally> f : running) {
        total.add(get(f));
      }
    } finally {
      lanes.shutdownNow();
    }
    System.out.println(total.summary(Duration.ofNanos(System.nanoTime() - started)));
    assertThat(total.problems()).as("departures from what the writers acknowledged").isEmpty();
    assertThat(total.lost()).as("acknowledged changes lost").isZero();
    assertThat(total.failedOpens()).as("stores that failed to open").isZero();
    assertThat(total.kills()).isGreaterThanOrEqualTo(LANES * KILLS_PER_LANE);
    // A writer killed before it took the store leaves the index as the test closed it.
    assertThat(total.rebuiltAtOpen()).as("reopens after a kill that rebuilt")
        .isGreaterThanOrEqualTo(total.kills() - total.early());
    int tenth = total.kills() / 10;
    assertThat(total.early()).as("kills while the writer opens the store").isGreaterThan(tenth);
    assertThat(total.midCheckpoint()).as("kills while a checkpoint was being taken")
        .isGreaterThan(tenth);
    assertThat(total.atCheckpointEnd()).as("kills the moment a checkpoint ended")
        .isGreaterThan(tenth);
    assertThat(total.loaded()).as("kills of a writer under induced load")
        .isGreaterThan(total.kills() / 2);
    assertThat(total.landed()).as("changes durable but killed before their ack").isPositive();
  }

  private CrashTally lane(int lane) throws Exception {
    long started = System.nanoTime();
    Random random = new Random(SEED + lane);
    Path errors = dir.resolve("writer-" + lane + ".err");
    Files.createFile(errors);
    CrashTally tally = new CrashTally();
    CrashModel model = null;
    Path folder = null;
    for (int kill = 0; kill < KILLS_PER_LANE; kill++) {
      if (kill % KILLS_PER_FOLDER == 0) {
        folder = dir.resolve("lane" + lane + "-store" + kill / KILLS_PER_FOLDER);
        model = new CrashModel();
      }
      CrashRun.Lines run = CrashRun.killAtRandom(folder, kill, random, errors);
      tally.killed(run);
      if (!afterKill(folder, model, run, tally) || !afterCleanClose(folder, run, tally)) {
        break;
      }
      if ((kill + 1) % PROGRESS_EVERY == 0 && kill + 1 < KILLS_PER_LANE) {
        System.out.println("lane " + lane + " so far: " + tally.summary(
            Duration.ofNanos(System.nanoTime() - started)));
      }
    }
    return tally;
  }

  /** Checks the store a kill left; false when the lane cannot go on. */
  private static boolean afterKill(Path folder, CrashModel model, CrashRun.Lines run,
      CrashTally tally) throws InterruptedException {
    EmbeddedStore opened = openOrTally(folder, tally, "after a writer " + run.how());
    if (opened == null) {
      return false;
    }
    try (EmbeddedStore store = opened) {
      tally.rebuilt(store.openReport().rebuilt());
      if (!tally.checked(model.verify(store, run.lines(), run.how()))) {
        return false;
      }
      List<Task> claimed = store.claim("next-owner", Integer.MAX_VALUE, CrashWriter.NOW,
          CrashWriter.LEASE);
      assertThat(claimed).extracting(Task::id).as("claimable at once after a writer %s",
          run.how()).containsExactlyInAnyOrderElementsOf(model.runnable());
    }
    return true;
  }

  /** Reopens the store the check closed: no rebuild, and an index equal to a rebuild. */
  private static boolean afterCleanClose(Path folder, CrashRun.Lines run, CrashTally tally)
      throws InterruptedException {
    EmbeddedStore opened = openOrTally(folder, tally, "after a clean close");
    if (opened == null) {
      return false;
    }
    try (EmbeddedStore store = opened) {
      assertThat(store.openReport().rebuilt()).as("closed cleanly").isFalse();
      StoreCheckReport check = StoreCheck.run(store, OPEN_BOUND, RebuildProgress.NONE);
      assertThat(check.matches()).as("%s after a writer %s", check, run.how()).isTrue();
    }
    return true;
  }

  /** The store, or null when it failed to open (noted in the tally, which ends the lane). */
  private static EmbeddedStore openOrTally(Path folder, CrashTally tally, String when)
      throws InterruptedException {
    try {
      return TimeBound.call("crash-suite-open", OPEN_BOUND, () -> EmbeddedStore.open(folder),
          EmbeddedStore::close);
    } catch (TimeBound.Exceeded e) {
      tally.failedToOpen(folder + " " + when + ": " + e.getMessage());
    } catch (ExecutionException e) {
      tally.failedToOpen(folder + " " + when + ": " + e.getCause());
    }
    return null;
  }

  private static CrashTally get(Future<CrashTally> f) throws Exception {
    try {
      return f.get(10L + KILLS_PER_LANE / 10, TimeUnit.MINUTES);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof Error error) {
        throw error;
      }
      throw e;
    }
  }
}

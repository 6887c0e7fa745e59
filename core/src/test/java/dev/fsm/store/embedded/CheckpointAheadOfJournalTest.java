package dev.fsm.store.embedded;

import static dev.fsm.store.embedded.Workload.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.store.embedded.checkpoint.Checkpoint;
import dev.fsm.store.embedded.checkpoint.CheckpointReport;
import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.store.embedded.event.StoreEventCodec;
import dev.fsm.store.embedded.journal.SnapshotFile;
import dev.fsm.task.Command;
import dev.fsm.task.Commands;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15, hole 1: a crash under load left a task with its status from one change and its
 * history from the next. A checkpoint copies tasks after the journal's roll, so its copy can hold
 * a change whose journal record the writer thread has not written yet; published before that
 * record, the snapshot held a change the journal could still lose, and a rebuild put the journal's
 * older record of the task over the snapshot's history. This test holds the journal's writer
 * at exactly that record and takes the folder as a kill would leave it; and a rebuild keeps a
 * task whole even when the snapshot is ahead of the journal, as after a repair that cut damage.
 */
class CheckpointAheadOfJournalTest {

  private static final String ID = "t1";
  private static final Duration BOUND = Duration.ofSeconds(30);

  @TempDir Path dir;

  @Test
  void aSnapshotIsPublishedOnlyOnceEveryChangeItHoldsIsInTheJournal() throws Exception {
    Path folder = dir.resolve("store");
    Path crashed = dir.resolve("crashed");
    HeldWriter held = new HeldWriter(folder, crashed);
    String paused;
    String runnable;
    EmbeddedStoreOptions options = EmbeddedStoreOptions.defaults().checkpointBytes(0);
    try (EmbeddedStore store = EmbeddedStore.open(folder, options)) {
      store.create(List.of(new Task(ID, "m", "v1", "s0", TaskStatus.PAUSED, "{}", 0, List.of(),
          T0, T0, null, null, null)));
      send(store, Command.RUN);
      store.journal().onPass(held::pass);
      String[] pausedWord = new String[1];
      FutureTask<CheckpointReport> checkpoint = new FutureTask<>(() -> Checkpoint.take(folder,
          store.gate(), store.journal(), store.index(), held.once(() -> {
            // After the roll, before the first task is copied: one change made durable, then
            // one appended whose record the writer thread holds back.
            send(store, Command.PAUSE);
            pausedWord[0] = Expect.observe(store, ID);
            held.arm();
            CompletableFuture.runAsync(() -> send(store, Command.RUN));
            held.awaitHeld();
          })));
      Thread checkpointer = new Thread(checkpoint, "test-checkpoint");
      held.watch(checkpointer);
      checkpointer.start();
      checkpoint.get(BOUND.toSeconds(), TimeUnit.SECONDS);
      held.rethrow();
      paused = pausedWord[0];
      runnable = Expect.observe(store, ID);
    }
    assertThat(paused).startsWith("s0,paused,0,{},2,");
    assertThat(runnable).startsWith("s0,runnable,0,{},3,");
    try (EmbeddedStore store = EmbeddedStore.open(crashed)) {
      assertThat(store.openReport().rebuilt()).isTrue();
      assertThat(Expect.observe(store, ID))
          .as("the task after a kill while its last change was on its way to the journal")
          .isIn(paused, runnable);
    }
  }

  @Test
  void aRebuildKeepsASnapshotCopyThatIsAheadOfAJournalCutShort() throws Exception {
    // A repair that cuts damage out of the journal can leave it without changes a checkpoint
    // copied: here the snapshot, taken after record S, holds the last run; the journal ends
    // at the pause before it.
    Path whole = dir.resolve("whole");
    Path cut = dir.resolve("cut");
    EmbeddedStoreOptions options = EmbeddedStoreOptions.defaults().checkpointBytes(0);
    long covered;
    String paused;
    try (EmbeddedStore store = EmbeddedStore.open(cut, options)) {
      covered = changesUpToThePause(store);
      paused = Expect.observe(store, ID);
    }
    Task ahead;
    List<Transition> history;
    try (EmbeddedStore store = EmbeddedStore.open(whole, options)) {
      changesUpToThePause(store);
      send(store, Command.RUN);
      ahead = store.get(ID).orElseThrow();
      history = store.history(ID);
    }
    SnapshotFile.write(cut.resolve(SnapshotFile.NAME), covered,
        List.of(StoreEventCodec.encode(new StoreEvent.Restored(ahead, history))).iterator());
    try (EmbeddedStore store = EmbeddedStore.open(cut, options.forceRebuild(true))) {
      String seen = Expect.observe(store, ID);
      assertThat(seen).as("rebuilt from a snapshot ahead of the journal")
          .isEqualTo(Expect.task(ahead, history.size(), Expect.hash(history)))
          .isNotEqualTo(paused);
      send(store, Command.PAUSE);
      assertThat(store.history(ID)).hasSize(4);
    }
    try (EmbeddedStore store = EmbeddedStore.open(cut, options.forceRebuild(true))) {
      assertThat(Expect.observe(store, ID)).startsWith("s0,paused,0,{},4,");
    }
  }

  /** Creates the task, runs and pauses it; gives the journal's record before the pause. */
  private static long changesUpToThePause(EmbeddedStore store) {
    store.create(List.of(new Task(ID, "m", "v1", "s0", TaskStatus.PAUSED, "{}", 0, List.of(),
        T0, T0, null, null, null)));
    send(store, Command.RUN);
    long beforeThePause = store.journal().lastSequence();
    send(store, Command.PAUSE);
    return beforeThePause;
  }

  private static void send(EmbeddedStore store, Command command) {
    store.update(ID, t -> Commands.apply(t, command, new Commands.Request(null, "", "op"), T0));
  }

  /**
   * A journal hook that, once armed, holds the writer thread at the start of its next pass (its
   * records taken, none written) until the checkpoint has either ended or stopped to wait for the
   * journal, then copies the store folder as a kill at that moment would leave it.
   */
  private static final class HeldWriter {

    private final Path folder;
    private final Path crashed;
    private final CountDownLatch holding = new CountDownLatch(1);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean armed;
    private volatile boolean copying;
    private volatile Thread checkpointer;

    HeldWriter(Path folder, Path crashed) {
      this.folder = folder;
      this.crashed = crashed;
    }

    void watch(Thread thread) {
      checkpointer = thread;
    }

    void arm() {
      armed = true;
    }

    /** A stop test for {@link Checkpoint#take} that runs {@code between} on its first call. */
    java.util.function.BooleanSupplier once(Runnable between) {
      boolean[] ran = {false};
      return () -> {
        if (!ran[0]) {
          ran[0] = true;
          between.run();
          copying = true;
        }
        return false;
      };
    }

    void awaitHeld() {
      try {
        if (!holding.await(BOUND.toSeconds(), TimeUnit.SECONDS)) {
          throw new AssertionError("the journal writer never began a pass after the append");
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }

    /** On the journal's writer thread. */
    void pass() {
      if (!armed) {
        return;
      }
      armed = false;
      holding.countDown();
      try {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (!checkpointSettled()) {
          if (System.nanoTime() > deadline) {
            throw new AssertionError("the checkpoint neither ended nor waited for the journal");
          }
          LockSupport.parkNanos(100_000);
        }
        Workload.copyFolder(folder, crashed);
      } catch (Throwable e) {
        failure.set(e);
      }
    }

    /** Ended, or waiting for a journal write (which cannot come while this thread is held). */
    private boolean checkpointSettled() {
      Thread t = checkpointer;
      if (!copying) {
        return false;
      }
      Thread.State state = t.getState();
      return state == Thread.State.TERMINATED || state == Thread.State.WAITING
          && Arrays.stream(t.getStackTrace()).anyMatch(
              f -> f.getClassName().equals(CompletableFuture.class.getName()));
    }

    void rethrow() throws Exception {
      Throwable e = failure.get();
      if (e instanceof Exception ex) {
        throw ex;
      }
      if (e instanceof Error err) {
        throw err;
      }
    }
  }
}

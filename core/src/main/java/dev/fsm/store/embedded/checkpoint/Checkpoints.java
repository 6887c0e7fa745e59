package dev.fsm.store.embedded.checkpoint;

import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.store.embedded.journal.Journal;
import dev.fsm.store.embedded.journal.SnapshotFile;
import dev.fsm.store.embedded.journal.Threads;
import dev.fsm.store.embedded.write.StoreGate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * When an embedded store takes checkpoints: when asked, and on a background thread once the
 * journal has grown by the larger of a set amount and the last snapshot's size since the last
 * one, so that checkpoints cost at most about one snapshot's writing per journal written and the
 * journal stays within a small multiple of live data.
 */
public final class Checkpoints {

  private final Path folder;
  private final StoreGate gate;
  private final Journal journal;
  private final TaskIndex index;
  private final long minGrowth;
  private final long journalBytesAtOpen;
  private final Object oneAtATime = new Object();
  private volatile boolean stopping;
  /** Set by a purge that started a checkpoint, which {@link #close} then lets finish. */
  private volatile boolean finishBeforeClose;
  private volatile long coveredBytes;
  private volatile long threshold;
  private Thread background;
  /** Tasks purged since the last checkpoint began: space a checkpoint would give back. */
  private final AtomicLong purgedSince = new AtomicLong();
  /** Checkpoints finished since open: a background one asked for before the last is not due. */
  private volatile long finished;

  public Checkpoints(Path folder, StoreGate gate, Journal journal, TaskIndex index, long minGrowth)
      throws IOException {
    this.folder = folder;
    this.gate = gate;
    this.journal = journal;
    this.index = index;
    this.minGrowth = minGrowth;
    this.journalBytesAtOpen = bytesIn(journal.folder());
    Path snapshot = folder.resolve(SnapshotFile.NAME);
    this.threshold = Math.max(minGrowth, Files.exists(snapshot) ? Files.size(snapshot) : 0);
  }

  /** Takes a checkpoint now, after any running one; see {@link Checkpoint}. */
  public CheckpointReport take() throws IOException {
    synchronized (oneAtATime) {
      purgedSince.set(0);
      long grown = journalBytes();
      CheckpointReport report = Checkpoint.take(folder, gate, journal, index, () -> stopping);
      coveredBytes = grown;
      threshold = Math.max(minGrowth, report.bytes());
      finished++;
      return report;
    }
  }

  /**
   * Runs {@code body} with no checkpoint running meanwhile (one under way ends first): for a
   * check that reads the journal's segments, which a checkpoint deletes.
   */
  public <T> T excluding(Supplier<T> body) {
    synchronized (oneAtATime) {
      return body.get();
    }
  }

  /** Starts a background checkpoint when the journal has grown enough and none is running. */
  public void maybeStart() {
    if (minGrowth <= 0 || stopping || journalBytes() - coveredBytes < threshold) {
      return;
    }
    startBackground();
  }

  /**
   * Notes a batch of a purge; at its {@code last} batch, starts a background checkpoint when the
   * tasks purged since the last one are at least a tenth of all tasks, {@code remaining} of
   * which are left: the checkpoint's snapshot leaves them out and it deletes the journal
   * segments that still hold them, which is when a purge gives its space back.
   */
  public void purged(long tasks, boolean last, long remaining) {
    long since = purgedSince.addAndGet(tasks);
    if (last && minGrowth > 0 && since > 0 && since * 10 >= since + remaining) {
      // A purge's checkpoint is how it gives space back: a one-shot purge closing the store at
      // once must not abandon it, so close waits for it.
      finishBeforeClose = true;
      startBackground();
    }
  }

  private void startBackground() {
    synchronized (this) {
      if (stopping || (background != null && background.isAlive())) {
        return;
      }
      long askedAfter = finished;
      background = new Thread(() -> takeInBackground(askedAfter), "fsm-checkpoint");
      background.setDaemon(true);
      background.start();
    }
  }

  /** Waits until no background checkpoint is running. */
  public void awaitBackground() throws InterruptedException {
    Thread running;
    synchronized (this) {
      running = background;
    }
    if (running != null) {
      running.join();
    }
  }

  /**
   * Abandons a running checkpoint and waits for its thread; no new one starts. One a purge
   * started is let finish first.
   */
  public void close() {
    if (finishBeforeClose) {
      Thread purging;
      synchronized (this) {
        purging = background;
      }
      if (purging != null) {
        Threads.joinUninterruptibly(purging);
      }
    }
    Thread running;
    synchronized (this) {
      stopping = true;
      running = background;
    }
    if (running == null) {
      return;
    }
    Threads.joinUninterruptibly(running);
  }

  private void takeInBackground(long askedAfter) {
    try {
      synchronized (oneAtATime) {
        // One asked for by hand ran first and covered what this one was started for.
        if (finished == askedAfter) {
          take();
        }
      }
    } catch (Checkpoint.CancelledException e) {
      // The store is closing; the old snapshot and the journal still hold everything.
    } catch (IOException | RuntimeException e) {
      // Nothing is lost: the journal still holds every change. Try again after more growth.
      coveredBytes = journalBytes();
    }
  }

  private long journalBytes() {
    return journalBytesAtOpen + journal.bytesWritten();
  }

  private static long bytesIn(Path folder) throws IOException {
    try (Stream<Path> files = Files.list(folder)) {
      long total = 0;
      for (Path f : (Iterable<Path>) files::iterator) {
        total += Files.isRegularFile(f) ? Files.size(f) : 0;
      }
      return total;
    }
  }
}

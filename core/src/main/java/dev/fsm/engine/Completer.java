package dev.fsm.engine;

import dev.fsm.store.Store;
import dev.fsm.task.Change;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.function.BooleanSupplier;

/**
 * Records outcomes in batches on one thread, as River completes jobs: whatever workers finished
 * while the last batch was being made durable goes to disk with one {@code recordAll}. Workers
 * hand an outcome over and take the next task at once instead of waiting for an fsync.
 */
final class Completer {

  /** The most outcomes recorded with one write. */
  static final int BATCH = 512;

  /**
   * An outcome to record, the attempt it ends (null when it ends none), and what to do once it
   * is recorded or dropped.
   */
  record Item(Change change, AttemptEnd ended, Runnable after) {}

  private static final Item STOP = new Item(null, null, null);

  private final Store store;
  private final String owner;
  private final RunListener listener;
  private final BlockingQueue<Item> queue = new LinkedBlockingQueue<>();
  private final StoreOutage outage;
  private final BooleanSupplier giveUp;
  private final Thread thread;

  /**
   * A completer recording for {@code owner}; while the store is unavailable it tries a batch
   * again through {@code outage} until {@code giveUp} (the runner stops at once).
   */
  Completer(Store store, String owner, RunListener listener, StoreOutage outage,
      BooleanSupplier giveUp) {
    this.store = store;
    this.owner = owner;
    this.listener = listener;
    this.outage = outage;
    this.giveUp = giveUp;
    this.thread = new Thread(this::loop, "fsm-completer");
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Queues an outcome, which ends attempt {@code ended} (null when none); {@code after} runs on
   * the completer's thread once it is settled.
   */
  void submit(Change change, AttemptEnd ended, Runnable after) {
    queue.add(new Item(change, ended, after));
  }

  /** Records everything queued so far, then stops the thread. */
  void close() {
    queue.add(STOP);
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void loop() {
    List<Item> batch = new ArrayList<>(BATCH);
    boolean stopping = false;
    while (!stopping) {
      try {
        batch.add(queue.take());
      } catch (InterruptedException e) {
        return;
      }
      queue.drainTo(batch, BATCH - 1);
      if (batch.remove(STOP)) {
        stopping = true;
        queue.drainTo(batch);
        batch.remove(STOP);
      }
      record(batch);
      batch.clear();
    }
  }

  private void record(List<Item> batch) {
    if (batch.isEmpty()) {
      return;
    }
    List<Change> changes = new ArrayList<>(batch.size());
    for (Item item : batch) {
      changes.add(item.change());
    }
    Set<String> lost;
    try {
      // A batch that failed for want of the store changed nothing: it is tried again as it is.
      Optional<Set<String>> answer = outage.retry("recording outcomes", () -> {
        long began = System.nanoTime();
        Set<String> dropped = store.recordAll(owner, changes);
        listener.committed(changes.size(), Duration.ofNanos(System.nanoTime() - began));
        return dropped;
      }, giveUp);
      if (answer.isEmpty()) {
        listener.problem("stopped before the store came back: " + changes.size()
            + " outcome(s) not recorded; their tasks run again once their leases end");
        batch.forEach(i -> i.after().run());
        return;
      }
      lost = answer.get();
    } catch (RuntimeException e) {
      listener.problem("could not record " + changes.size() + " outcome(s): " + e.getMessage()
          + "; their tasks run again once their leases end");
      batch.forEach(i -> i.after().run());
      return;
    }
    for (Item item : batch) {
      String id = item.change().next().id();
      if (lost.contains(id)) {
        listener.discarded(id, "its lease was lost or an operator's command came first");
      } else {
        listener.recorded(item.change());
        if (item.ended() != null) {
          listener.attemptEnded(item.ended());
        }
      }
      item.after().run();
    }
  }
}

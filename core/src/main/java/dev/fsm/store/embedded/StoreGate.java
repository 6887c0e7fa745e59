package dev.fsm.store.embedded;

import dev.fsm.FsmException;
import dev.fsm.store.embedded.journal.Journal;
import java.nio.file.Path;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import org.mapdb.DBException;

/**
 * The one lock in front of an embedded store's journal and index. Under it a change is checked,
 * appended to the journal and applied to the index, so both see changes in the same order; its
 * caller then waits for the group commit outside the lock, so concurrent changes share one fsync.
 * After a failure that may leave the index ahead of the journal, the gate refuses everything
 * until the store is opened again, which rebuilds the index.
 */
final class StoreGate {

  /** A change made under the lock, and the journal's promise to wait for outside it. */
  record Pending<T>(T result, CompletableFuture<Long> durable) {

    /** Nothing changed: nothing to wait for. */
    static <T> Pending<T> unchanged(T result) {
      return new Pending<>(result, null);
    }
  }

  private final Path folder;
  private final Journal journal;
  private final TaskIndex index;
  private final Object lock = new Object();
  /** The newest append: what a later result may rest on. */
  private CompletableFuture<Long> lastAppend = CompletableFuture.completedFuture(0L);
  private boolean closed;
  private FsmException broken;

  StoreGate(Path folder, Journal journal, TaskIndex index) {
    this.folder = folder;
    this.journal = journal;
    this.index = index;
  }

  /** Runs {@code body} under the lock, once the store is known to be open and sound. */
  <T> T locked(Supplier<T> body) {
    synchronized (lock) {
      if (closed) {
        throw new IllegalStateException("store " + folder + " is closed");
      }
      if (broken != null) {
        throw new FsmException("store " + folder + " takes no more requests after an earlier"
            + " failure; close it and open it again (opening keeps every change that reached the"
            + " disk). The failure: " + broken.getMessage(), broken);
      }
      try {
        return body.get();
      } catch (DBException e) {
        throw brokenBy(indexFailed(e));
      }
    }
  }

  /** Under the lock: appends the records, then applies their events to the index. */
  <T> Pending<T> commit(T result, Records.Encoded encoded) {
    CompletableFuture<Long> durable = encoded.records().size() == 1
        ? journal.append(encoded.records().get(0)) : journal.appendAll(encoded.records());
    lastAppend = durable;
    try {
      for (StoreEvent e : encoded.events()) {
        index.apply(e);
      }
    } catch (RuntimeException | Error e) {
      // The journal has the change and the index may hold part of it: only a rebuild agrees.
      FsmException failed = brokenBy(indexFailed(e));
      if (e instanceof Error error) {
        throw error;
      }
      throw failed;
    }
    return new Pending<>(result, durable);
  }

  /**
   * Under the lock: a result that changes nothing but may rest on a change still on its way to
   * disk, so it waits for the newest one.
   */
  <T> Pending<T> afterLastChange(T result) {
    return new Pending<>(result, lastAppend);
  }

  /** Waits, outside the lock, until the change is on disk, and gives its result. */
  <T> T await(Pending<T> pending) {
    if (pending.durable() == null) {
      return pending.result();
    }
    try {
      pending.durable().join();
    } catch (CompletionException | CancellationException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      FsmException failed = new FsmException("store " + folder + " could not write a change to"
          + " disk, so it may be lost: " + cause.getMessage(), cause);
      synchronized (lock) {
        brokenBy(failed);
      }
      throw failed;
    }
    return pending.result();
  }

  /**
   * Refuses everything from now on; changes already appended are left to the journal's close.
   *
   * @return false when it was closed already
   */
  boolean close() {
    synchronized (lock) {
      boolean wasOpen = !closed;
      closed = true;
      return wasOpen;
    }
  }

  /**
   * True when the index holds exactly what the journal does: nothing failed. Only meaningful
   * once the journal is closed, when every append has succeeded or failed.
   */
  boolean sound() {
    synchronized (lock) {
      return broken == null && !lastAppend.isCompletedExceptionally();
    }
  }

  private FsmException indexFailed(Throwable e) {
    return new FsmException("the index of store " + folder + " failed (" + e + "); close the"
        + " store and open it again: opening rebuilds the index from the journal", e);
  }

  /** Under the lock. */
  private FsmException brokenBy(FsmException failure) {
    if (broken == null) {
      broken = failure;
    }
    return failure;
  }
}

package dev.fsm.store.embedded.write;

import dev.fsm.FsmException;
import dev.fsm.files.DiskFailure;
import dev.fsm.store.OutcomeUnknownException;
import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.store.embedded.journal.Journal;
import dev.fsm.store.embedded.journal.Threads;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.mapdb.DBException;

/**
 * The two locks in front of an embedded store's journal, leases and index.
 *
 * <p>Under the store's lock a change is checked and appended to the journal, and the leases it
 * makes or ends are noted; its event then waits in a queue for the index, and its caller waits
 * for the group commit that makes it durable. The index thread applies what waits, under the
 * index's own lock, while the journal forces: the journal wakes it as each pass begins, when the
 * writers are waiting anyway. Done by the writers themselves, under the store's lock or after
 * their append or their wake-up, the index work (15-60 µs) took the CPU just when other writers
 * were waking up to append: measured with four writers, their appends came 75-100 µs after a
 * force ended instead of under 25 µs, half of them missed the next force, and a force carried 2
 * records where a bare journal's carries 3.3.
 *
 * <p>Anything that reads the index takes it through {@link #index()} under the store's lock,
 * which first applies every event still waiting, in append order, whoever appended it: a reader
 * sees every change appended before. A read applies most of them before it takes the store's
 * lock, under the index's alone ({@link #locked}), so appends go on meanwhile. The index's lock
 * is never held while waiting for the store's.
 *
 * <p>A runner's outcomes go through {@link #appendAndAwait}, flat-combined by the holder of the
 * store's lock ({@link CombiningLock}).
 *
 * <p>After a failure that may leave the index ahead of or behind the journal, the gate refuses
 * everything until the store is opened again, which rebuilds the index.
 */
public final class StoreGate {

  /** A change made under the lock, and the journal's promise to wait for outside it. */
  public record Pending<T>(T result, CompletableFuture<Long> durable) {

    /** Nothing changed: nothing to wait for. */
    public static <T> Pending<T> unchanged(T result) {
      return new Pending<>(result, null);
    }
  }

  private final Path folder;
  private final Journal journal;
  private final TaskIndex index;
  private final Leases leases;
  /** The store's lock: appends, leases, and the order of everything. */
  private final CombiningLock lock = new CombiningLock();
  /** Guards the index; taken after {@link #lock} when both are held. */
  private final ReentrantLock indexLock = new ReentrantLock();
  /** Events appended, in order, and not yet applied to the index. */
  private final ConcurrentLinkedQueue<TaskIndex.Appended> unapplied =
      new ConcurrentLinkedQueue<>();
  /** Applies what waits while the journal forces; see {@link #applyWhileForcing}. */
  private final Thread indexer;
  private volatile boolean stopping;
  /** Whether the holder of {@link #lock} holds the index's lock too; under {@link #lock}. */
  private boolean indexHeld;
  /** The newest append: what a later result may rest on. */
  private CompletableFuture<Long> lastAppend = CompletableFuture.completedFuture(0L);
  private boolean closed;
  /** The newest append {@link #yieldToWriters} saw; only its one caller thread uses it. */
  private CompletableFuture<Long> seenByBackground;
  private final AtomicReference<FsmException> broken = new AtomicReference<>();

  public StoreGate(Path folder, Journal journal, TaskIndex index, Leases leases) {
    this.folder = folder;
    this.journal = journal;
    this.index = index;
    this.leases = leases;
    this.indexer = new Thread(this::applyWhileForcing, "fsm-index");
    indexer.setDaemon(true);
    indexer.start();
    journal.onPass(() -> LockSupport.unpark(indexer));
  }

  /**
   * Runs {@code body} under the store's lock with the index up to date, once the store is known
   * to be open and sound: for a body that reads the index.
   */
  public <T> T locked(Supplier<T> body) {
    catchUp();
    return appending(() -> {
      index();
      return body.get();
    });
  }

  /**
   * Runs {@code body} under the store's lock, once the store is known to be open and sound: for
   * a body that needs the index only now and then, and takes it through {@link #index()} then.
   */
  public <T> T appending(Supplier<T> body) {
    return lock.run(() -> guarded(body));
  }

  /**
   * As {@link #appending} followed by {@link #await}, for a body that only appends (a runner's
   * outcomes): when the lock is taken, the body waits for its holder to run it, and its caller
   * sleeps once, until the change is durable (see {@link CombiningLock}).
   */
  public <T> T appendAndAwait(Supplier<Pending<T>> body) {
    return lock.runAndAwait(() -> guarded(body), this::notSaved);
  }

  /** Under the store's lock: runs the body once the store is known to be open and sound. */
  private <T> T guarded(Supplier<T> body) {
    if (closed) {
      throw new IllegalStateException("store " + folder + " is closed");
    }
    throwIfBroken();
    // A body may call the store again (an update whose function reads a history): the inner
    // call must leave the index's lock to the outer one, which reads the index after it.
    boolean outer = !indexHeld;
    try {
      return body.get();
    } catch (DBException e) {
      throw brokenBy(indexFailed(e));
    } catch (InternalError e) {
      if (DiskFailure.isMappedFault(e)) {
        throw brokenBy(indexFailed(e));
      }
      throw e;
    } finally {
      if (outer && indexHeld) {
        releaseIndex();
      }
    }
  }

  /**
   * Applies what the body appended and lets the index's lock go. A failure here breaks the gate
   * but does not fail the body: its changes are in the journal already, and awaiting them says
   * whether they are durable. Thrown instead, it told a caller whose change the next open
   * rebuilds that it had failed.
   */
  private void releaseIndex() {
    try {
      applyWaiting();
    } catch (FsmException noted) {
      // Noted in broken by applyWaiting: the next request is refused with it.
    } finally {
      indexHeld = false;
      indexLock.unlock();
    }
  }

  /**
   * Under the store's lock: the index, with every change appended so far applied; held until
   * the body ends.
   */
  public TaskIndex index() {
    if (!indexHeld) {
      indexLock.lock();
      indexHeld = true;
      applyWaiting();
      throwIfBroken();
    }
    return index;
  }

  /** Whether the calling thread holds the index's lock now. */
  boolean holdsIndex() {
    return indexLock.isHeldByCurrentThread();
  }

  /**
   * Under the store's lock: appends the records and notes their events' leases; the events wait
   * for the index, which applies them in this order before anything reads it again.
   */
  public <T> Pending<T> commit(T result, Records.Encoded encoded) {
    CompletableFuture<Long> durable = encoded.records().size() == 1
        ? journal.append(encoded.records().get(0)) : journal.appendAll(encoded.records());
    lastAppend = durable;
    for (StoreEvent e : encoded.events()) {
      unapplied.add(leases.noted(e));
    }
    return new Pending<>(result, durable);
  }

  /**
   * Under the store's lock: a result that changes nothing but may rest on a change still on its
   * way to disk, so it waits for the newest one.
   */
  public <T> Pending<T> afterLastChange(T result) {
    return new Pending<>(result, lastAppend);
  }

  /**
   * Outside the lock, for a background task that takes the lock again and again: when changes
   * were appended since its last call (writers are at work), pauses twice {@code heldNanos}, so
   * that the task holds the lock at most a third of the time and the writers waiting for it
   * append in between; when the store is idle, goes on at once.
   */
  public void yieldToWriters(long heldNanos) {
    CompletableFuture<Long> newest = appending(() -> lastAppend);
    if (newest != seenByBackground) {
      seenByBackground = newest;
      LockSupport.parkNanos(2 * heldNanos);
    }
  }

  /** Waits, outside the lock, until the change is on disk, and gives its result. */
  public <T> T await(Pending<T> pending) {
    if (pending.durable() == null) {
      return pending.result();
    }
    try {
      pending.durable().join();
    } catch (CompletionException | CancellationException e) {
      throw notSaved(e.getCause() == null ? e : e.getCause());
    }
    return pending.result();
  }

  /**
   * A change that may not have reached the disk (a failed write or force can leave part of it
   * there): every later request is refused.
   */
  private FsmException notSaved(Throwable cause) {
    FsmException failed = DiskFailure.advice(folder.resolve(Journal.FOLDER), cause)
        .<FsmException>map(advice -> new OutcomeUnknownException("store " + folder
            + " could not save a change: " + advice
            + " (the changes acknowledged before it are safe)", cause))
        .orElseGet(() -> new OutcomeUnknownException("store " + folder + " could not write a"
            + " change to disk, so it may be lost: " + cause.getMessage(), cause));
    brokenBy(failed);
    return failed;
  }

  /**
   * The index thread: each time the journal begins a pass, applies what waits. Never stops on a
   * failure, which breaks the gate (the changes themselves are in the journal).
   */
  private void applyWhileForcing() {
    while (!stopping) {
      LockSupport.park(this);
      applyIfAny();
    }
  }

  /**
   * Before a read takes the store's lock: applies what waits under the index's lock alone, so
   * that the read holds the store's lock, and appends wait for it, only for what is appended
   * meanwhile. With 64 writers, claims applying the changes of the last force under the store's
   * lock were half of the writers' CPU, all of it while no writer could append.
   */
  private void catchUp() {
    if (!lock.isHeldByCurrentThread()) {
      applyIfAny();
    }
  }

  /** Applies what waits, if anything does; a failure breaks the gate, which refuses what comes. */
  private void applyIfAny() {
    if (unapplied.isEmpty()) {
      return;
    }
    indexLock.lock();
    try {
      // Closing applied what waited (or, broken, left it) and the index is closed next.
      if (!stopping) {
        applyWaiting();
      }
    } catch (RuntimeException | Error e) {
      // Noted in broken by applyWaiting; every later request is refused.
    } finally {
      indexLock.unlock();
    }
  }

  /**
   * Under the index's lock: applies what waits, in order, then settles the index; after a
   * failure only drops what waits.
   */
  private void applyWaiting() {
    TaskIndex.Appended next;
    while ((next = unapplied.poll()) != null) {
      if (broken.get() != null) {
        continue;
      }
      try {
        index.apply(next);
      } catch (RuntimeException | Error e) {
        // The journal has the change and the index may hold part of it: only a rebuild agrees.
        FsmException failed = brokenBy(indexFailed(e));
        if (e instanceof VirtualMachineError error && !DiskFailure.isMappedFault(error)) {
          throw error;
        }
        // MapDB signals a closed or damaged store with errors too (IllegalAccessError).
        throw failed;
      }
    }
    index.settle();
  }

  private void throwIfBroken() {
    FsmException failure = broken.get();
    if (failure != null) {
      throw new FsmException("store " + folder + " takes no more requests after an earlier"
          + " failure; close it and open it again (opening keeps every change that reached the"
          + " disk). The failure: " + failure.getMessage(), failure);
    }
  }

  /**
   * Refuses everything from now on, after applying what waits and ending every lease, which puts
   * the tasks they held back in the due queue as a rebuild would have them; changes already
   * appended are left to the journal's close.
   *
   * @return false when it was closed already
   */
  public boolean close() {
    boolean wasOpen = closeUnderLock();
    Threads.joinUninterruptibly(indexer);
    return wasOpen;
  }

  private boolean closeUnderLock() {
    return lock.run(() -> {
      boolean wasOpen = !closed;
      closed = true;
      // Before the index's lock is taken: a read that takes it after this applies nothing.
      stopping = true;
      if (wasOpen && broken.get() == null) {
        indexLock.lock();
        try {
          applyWaiting();
          for (String id : leases.endAll()) {
            index.requeue(id);
          }
        } catch (RuntimeException e) {
          // Broken now: the index is not marked clean, and the next open rebuilds it.
          brokenBy(indexFailed(e));
        } finally {
          indexLock.unlock();
        }
      }
      LockSupport.unpark(indexer);
      return wasOpen;
    });
  }

  /**
   * True when the index holds exactly what the journal does: nothing failed. Only meaningful
   * once the journal is closed, when every append has succeeded or failed.
   */
  public boolean sound() {
    return lock.run(() -> broken.get() == null && !lastAppend.isCompletedExceptionally());
  }

  private FsmException indexFailed(Throwable e) {
    if (e instanceof FsmException f && f == broken.get()) {
      return f;
    }
    Optional<String> disk = DiskFailure.advice(folder.resolve(TaskIndex.FILE), e);
    if (disk.isPresent()) {
      return new FsmException("store " + folder + " stopped: " + disk.get() + "; every change"
          + " acknowledged is safe in the journal, and the next open rebuilds the index from it",
          e);
    }
    return new FsmException("the index of store " + folder + " failed (" + e + "); close the"
        + " store and open it again: opening rebuilds the index from the journal", e);
  }

  private FsmException brokenBy(FsmException failure) {
    broken.compareAndSet(null, failure);
    return failure;
  }
}

package dev.fsm.store.embedded.write;

import dev.fsm.store.embedded.write.StoreGate.Pending;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The store's lock, with flat combining for writers that only append: such a writer queues its
 * body, and whoever holds the lock runs every queued body, in queue order, before it lets go.
 * With many writers on few cores, handing the lock from one to the next cost a wake-up and a
 * context switch per change, on top of the one its force costs; now a writer that finds the
 * lock taken sleeps once, until its change is durable, as a writer of the bare journal does.
 *
 * <p>No body is left behind: every holder runs what waits before unlocking, and after
 * unlocking takes the lock again while something waits, so a body queued just as the holder
 * let go (its writer failed to take the lock) is run by that holder or by the next one.
 */
final class CombiningLock {

  private final ReentrantLock lock = new ReentrantLock();
  private final ConcurrentLinkedQueue<Request<?>> waiting = new ConcurrentLinkedQueue<>();

  /** Runs {@code body} under the lock, then what other writers queued meanwhile. */
  <T> T run(Supplier<T> body) {
    lock.lock();
    try {
      return body.get();
    } finally {
      release();
    }
  }

  /**
   * Runs {@code body} under the lock, by this thread or the lock's holder, and waits until the
   * change it made is durable.
   *
   * @param lost turns a failed write into what the caller is told; a body's own exception is
   *     thrown as it was
   */
  <T> T runAndAwait(Supplier<Pending<T>> body, Function<Throwable, RuntimeException> lost) {
    if (lock.isHeldByCurrentThread()) {
      // Inside a body: running the queue here would interleave other bodies with this one.
      return await(body.get(), lost);
    }
    Request<T> request = new Request<>(body);
    waiting.add(request);
    if (lock.tryLock()) {
      release();
    }
    return request.await(lost);
  }

  /** How many queued bodies wait to run; for tests. */
  int queued() {
    return waiting.size();
  }

  /** Whether the calling thread holds the lock. */
  boolean isHeldByCurrentThread() {
    return lock.isHeldByCurrentThread();
  }

  private static <T> T await(Pending<T> pending, Function<Throwable, RuntimeException> lost) {
    if (pending.durable() == null) {
      return pending.result();
    }
    try {
      pending.durable().join();
    } catch (CompletionException | CancellationException e) {
      throw lost.apply(e.getCause() == null ? e : e.getCause());
    }
    return pending.result();
  }

  /** Runs what waits, unlocks, and takes the lock again while anything waits. */
  private void release() {
    if (lock.getHoldCount() > 1) {
      lock.unlock();
      return;
    }
    runWaiting();
    lock.unlock();
    while (!waiting.isEmpty() && lock.tryLock()) {
      runWaiting();
      lock.unlock();
    }
  }

  private void runWaiting() {
    Request<?> next;
    while ((next = waiting.poll()) != null) {
      next.run();
    }
  }

  /** A queued body and what its writer waits for: its result once durable, or its failure. */
  private static final class Request<T> implements BiConsumer<Long, Throwable> {

    private final Supplier<Pending<T>> body;
    private final CompletableFuture<T> done = new CompletableFuture<>();
    /** Written before {@link #done} completes, so its waiter sees them. */
    private T result;
    private Throwable refused;

    Request(Supplier<Pending<T>> body) {
      this.body = body;
    }

    void run() {
      Pending<T> pending;
      try {
        pending = body.get();
      } catch (Throwable e) {
        // Its writer's to throw, not the holder's, whose own body is done.
        refused = e;
        done.completeExceptionally(e);
        return;
      }
      if (pending.durable() == null) {
        done.complete(pending.result());
      } else {
        result = pending.result();
        pending.durable().whenComplete(this);
      }
    }

    /** The journal's writer thread: the change is durable, or failed to be. */
    @Override
    public void accept(Long sequence, Throwable failure) {
      if (failure == null) {
        done.complete(result);
      } else {
        done.completeExceptionally(failure);
      }
    }

    T await(Function<Throwable, RuntimeException> lost) {
      try {
        return done.join();
      } catch (CompletionException | CancellationException e) {
        if (refused instanceof RuntimeException r) {
          throw r;
        }
        if (refused instanceof Error r) {
          throw r;
        }
        throw lost.apply(e.getCause() == null ? e : e.getCause());
      }
    }
  }
}

package dev.fsm.store.embedded.recovery;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * Runs work on a daemon thread of its own and stops waiting for it after a time bound. A damaged
 * MapDB file can make a read loop forever rather than fail, and Java cannot stop a thread from
 * outside, so the work is interrupted and left to end on its own.
 */
public final class TimeBound {

  /** The work did not finish in time. */
  public static final class Exceeded extends Exception {

    Exceeded(String message) {
      super(message);
    }
  }

  private TimeBound() {}

  /**
   * The work's result, if it comes within {@code limit}.
   *
   * @param late receives a result that came after the caller stopped waiting, to close it
   * @throws Exceeded when the work did not finish in time
   * @throws ExecutionException when the work failed; its cause is the work's exception
   */
  public static <T> T call(String thread, Duration limit, Callable<T> work, Consumer<T> late)
      throws Exceeded, ExecutionException, InterruptedException {
    CompletableFuture<T> result = new CompletableFuture<>();
    Thread worker = new Thread(() -> {
      try {
        T value = work.call();
        if (!result.complete(value)) {
          late.accept(value);
        }
      } catch (Throwable e) {
        result.completeExceptionally(e);
      }
    }, thread);
    worker.setDaemon(true);
    worker.start();
    try {
      return result.get(limit.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      if (!result.completeExceptionally(e)) {
        return result.get();
      }
      worker.interrupt();
      throw new Exceeded(thread + " did not finish within " + limit.toMillis() + " ms");
    } catch (InterruptedException e) {
      if (result.completeExceptionally(e)) {
        worker.interrupt();
      } else if (!result.isCompletedExceptionally()) {
        late.accept(result.join());
      }
      throw e;
    }
  }
}

package dev.fsm.operations;

import dev.fsm.FsmException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * One store update per task, many at once, for the operations that change a whole selection
 * (bulk send, upgrade): each update waits for its write to be durable, so one at a time a
 * selection costs a disk force per task, while updates in flight together share the journal's
 * group commits. Results come back in the tasks' order.
 */
final class Fanout implements AutoCloseable {

  /** Updates in flight at once: enough to fill a group commit, few enough to stay cheap. */
  static final int WRITERS = 16;

  private final ExecutorService writers;

  Fanout(String name) {
    this.writers = Executors.newFixedThreadPool(WRITERS, r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    });
  }

  /**
   * {@code work} applied to every item, at most {@link #WRITERS} at once; the first exception
   * one of them threw (in the items' order) is thrown once all have ended.
   */
  <I, R> List<R> each(List<I> items, Function<I, R> work) {
    List<Future<R>> running = new ArrayList<>(items.size());
    for (I item : items) {
      running.add(writers.submit(() -> work.apply(item)));
    }
    List<R> results = new ArrayList<>(items.size());
    RuntimeException first = null;
    for (Future<R> f : running) {
      try {
        results.add(f.get());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new FsmException("interrupted while changing tasks; what was changed stays"
            + " changed: run the command again to finish");
      } catch (ExecutionException e) {
        if (first == null) {
          first = e.getCause() instanceof RuntimeException r ? r
              : new IllegalStateException(e.getCause());
        }
      }
    }
    if (first != null) {
      throw first;
    }
    return results;
  }

  @Override
  public void close() {
    writers.shutdownNow();
  }
}

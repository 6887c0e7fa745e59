package dev.fsm.store.embedded.index;

import dev.fsm.FsmException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.ToLongFunction;

/**
 * Runs a rebuild's reading on a thread of its own: a source that reads a file, decodes each
 * record and prepares it (encoding index values, deflating contexts) hands what it made over in
 * batches, while the rebuilding thread merges or sorts them. The two halves then share both
 * cores instead of taking turns on one; items come out in the source's order.
 *
 * @param <T> what the source makes of each record
 */
public final class ReadAhead<T> implements AutoCloseable {

  /** A source of items: reads everything, giving each item to {@code each} in order. */
  public interface Source<T> {
    void read(Consumer<T> each) throws IOException;
  }

  private static final int BATCH = 256;
  /**
   * A batch is handed over at this weight too, so a few large records (a bulk create's record
   * holds thousands of tasks) never pile up: {@code AHEAD} batches stay within a few MB.
   */
  private static final long BATCH_WEIGHT = 512 << 10;
  /** Batches read ahead: enough to ride out a slow moment on either side. */
  private static final int AHEAD = 8;

  private final Source<T> source;
  private final ToLongFunction<T> weigher;
  private final BlockingQueue<List<T>> batches = new ArrayBlockingQueue<>(AHEAD);
  private final List<T> end = new ArrayList<>(0);
  private final Thread thread;
  private volatile boolean cancelled;
  private volatile Throwable failure;
  private boolean ended;

  private ReadAhead(Source<T> source, ToLongFunction<T> weigher, String name) {
    this.source = source;
    this.weigher = weigher;
    this.thread = new Thread(this::run, name);
    thread.setDaemon(true);
  }

  /**
   * Starts reading {@code source} on a thread called {@code name}; {@code weigher} tells about
   * how many bytes of heap an item holds.
   */
  public static <T> ReadAhead<T> start(Source<T> source, ToLongFunction<T> weigher,
      String name) {
    ReadAhead<T> reader = new ReadAhead<>(source, weigher, name);
    reader.thread.start();
    return reader;
  }

  /** Reads {@code source} ahead while {@code each} takes its items, as a loop would. */
  public static <T> void forEach(Source<T> source, ToLongFunction<T> weigher, String name,
      Consumer<T> each) throws IOException {
    try (ReadAhead<T> reader = start(source, weigher, name)) {
      for (List<T> batch = reader.next(); batch != null; batch = reader.next()) {
        batch.forEach(each);
      }
    }
  }

  /**
   * The next batch, or null once the source is read whole.
   *
   * @throws IOException as the source threw it; so is any other failure rethrown, an
   *     UncheckedIOException as its cause
   */
  public List<T> next() throws IOException {
    if (ended) {
      return null;
    }
    List<T> batch;
    try {
      batch = batches.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FsmException("the rebuild was interrupted while reading", e);
    }
    if (batch != end) {
      return batch;
    }
    ended = true;
    join();
    Throwable t = failure;
    if (t instanceof UncheckedIOException u) {
      throw u.getCause();
    } else if (t instanceof IOException e) {
      throw e;
    } else if (t instanceof RuntimeException e) {
      throw e;
    } else if (t instanceof Error e) {
      throw e;
    }
    return null;
  }

  /** Stops the reading thread, if it still runs, and waits for it. */
  @Override
  public void close() {
    if (ended) {
      return;
    }
    cancelled = true;
    batches.clear();
    join();
  }

  private void run() {
    List<T> batch = new ArrayList<>(BATCH);
    long[] weight = {0};
    try {
      source.read(item -> {
        if (cancelled) {
          throw new CancellationException();
        }
        batch.add(item);
        weight[0] += weigher.applyAsLong(item);
        if (batch.size() == BATCH || weight[0] >= BATCH_WEIGHT) {
          hand(new ArrayList<>(batch));
          batch.clear();
          weight[0] = 0;
        }
      });
      if (!batch.isEmpty()) {
        hand(new ArrayList<>(batch));
      }
    } catch (CancellationException e) {
      return;
    } catch (Throwable t) {
      failure = t;
    }
    try {
      hand(end);
    } catch (CancellationException e) {
      // Nobody is waiting for the end any more.
    }
  }

  /** Queues a batch, giving up once the rebuilding thread has stopped taking them. */
  private void hand(List<T> batch) {
    try {
      while (!batches.offer(batch, 100, TimeUnit.MILLISECONDS)) {
        if (cancelled) {
          throw new CancellationException();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CancellationException();
    }
  }

  private void join() {
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}

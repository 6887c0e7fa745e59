package dev.fsm.store.embedded.index;

import dev.fsm.FsmException;
import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CancellationException;
import java.util.concurrent.TimeUnit;

/**
 * Reads a snapshot for a rebuild on a thread of its own, decoding each task and encoding its
 * index value (deflating its context) there, while the rebuilding thread merges the tasks into
 * the index: those two halves of a rebuild's load then share both cores instead of taking
 * turns on one. Tasks come out in the snapshot's order, in batches.
 */
final class SnapshotReader implements AutoCloseable {

  /** A snapshot's task, ready to be stored: its id, key name, index value and history. */
  record Encoded(String id, byte[] name, byte[] value, List<Transition> history) {}

  private static final int BATCH = 256;
  /** Batches read ahead: enough to ride out a slow moment on either side, a few MB at most. */
  private static final int AHEAD = 8;
  private static final List<Encoded> END = List.of();

  private final TaskIndex.SnapshotSource source;
  private final BlockingQueue<List<Encoded>> batches = new ArrayBlockingQueue<>(AHEAD);
  private final List<StoreEvent> versions = new ArrayList<>();
  private final Thread thread;
  private volatile boolean cancelled;
  private volatile Throwable failure;
  private boolean ended;

  private SnapshotReader(TaskIndex.SnapshotSource source) {
    this.source = source;
    this.thread = new Thread(this::run, "fsm-snapshot-reader");
    thread.setDaemon(true);
  }

  /** Starts reading {@code source}. */
  static SnapshotReader start(TaskIndex.SnapshotSource source) {
    SnapshotReader reader = new SnapshotReader(source);
    reader.thread.start();
    return reader;
  }

  /**
   * The next batch of tasks, or null once the snapshot is read whole.
   *
   * @throws IOException as reading the snapshot threw it; so is any other failure rethrown
   */
  List<Encoded> next() throws IOException {
    if (ended) {
      return null;
    }
    List<Encoded> batch;
    try {
      batch = batches.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FsmException("the rebuild was interrupted while reading the snapshot", e);
    }
    if (batch != END) {
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

  /** The machine versions the snapshot holds, once {@link #next} has returned null. */
  List<StoreEvent> versions() {
    if (!ended) {
      throw new IllegalStateException("the snapshot is still being read");
    }
    return versions;
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
    List<Encoded> batch = new ArrayList<>(BATCH);
    try {
      source.read(event -> {
        if (cancelled) {
          throw new CancellationException();
        }
        if (event instanceof StoreEvent.Restored r) {
          String id = r.task().id();
          batch.add(new Encoded(id, IndexKeys.name(id),
              TaskValues.encode(TaskIndex.withoutLease(r.task())), r.history()));
          if (batch.size() == BATCH) {
            hand(List.copyOf(batch));
            batch.clear();
          }
        } else if (event instanceof StoreEvent.Registered) {
          versions.add(event);
        } else {
          throw new IllegalArgumentException("a snapshot holds no "
              + event.getClass().getSimpleName() + " records");
        }
      });
      if (!batch.isEmpty()) {
        hand(List.copyOf(batch));
      }
    } catch (CancellationException e) {
      return;
    } catch (Throwable t) {
      failure = t;
    }
    try {
      hand(END);
    } catch (CancellationException e) {
      // Nobody is waiting for the end any more.
    }
  }

  /** Queues a batch, giving up once the rebuilding thread has stopped taking them. */
  private void hand(List<Encoded> batch) {
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

package dev.fsm.store.embedded.journal;

import dev.fsm.FsmException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A journal's writer thread and the queue feeding it: each pass writes everything waiting,
 * forces once, and only then completes the callers' futures, in order, on the writer thread.
 */
final class GroupCommit {

  private final Path folder;
  private final SegmentWriter writer;
  private final Thread thread;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition work = lock.newCondition();
  private ArrayList<Pending> queue = new ArrayList<>();
  private boolean writerWaiting;
  /** Run on the writer thread as each pass begins; see {@link Journal#onPass}. */
  private volatile Runnable onPass = () -> { };
  private boolean closing;
  private FsmException failure;

  /** Writer thread only. */
  private long nextSequence;
  private volatile long durableSequence;
  private volatile long records;
  private volatile long batches;

  /** Starts the writer thread, which continues after {@code lastSequence}, the last on disk. */
  GroupCommit(Path folder, SegmentWriter writer, long lastSequence) {
    this.folder = folder;
    this.writer = writer;
    this.durableSequence = lastSequence;
    this.nextSequence = lastSequence + 1;
    this.thread = new Thread(this::runWriter, "fsm-journal-writer");
    thread.setDaemon(true);
    thread.start();
  }

  /** Adds a hook, run after those added before. */
  synchronized void onPass(Runnable hook) {
    Runnable before = onPass;
    this.onPass = () -> {
      before.run();
      hook.run();
    };
  }

  /** Queues one record; the future gives its sequence once it is durable. */
  CompletableFuture<Long> append(byte[] record) {
    return enqueue(new Pending(record, null));
  }

  /** Queues records for consecutive sequences; the future gives the first one's. */
  CompletableFuture<Long> appendAll(List<byte[]> records) {
    return enqueue(new Pending(null, records));
  }

  /** Queues a roll to a new segment; the future completes once everything before is durable. */
  CompletableFuture<Long> roll() {
    return enqueue(new Pending(null, null));
  }

  /** The sequence of the newest durable record; 0 before the first. */
  long durableSequence() {
    return durableSequence;
  }

  /** Whether the caller is the writer thread, which must never wait for itself. */
  boolean isWriterThread() {
    return Thread.currentThread() == thread;
  }

  /** Counts of what the writer has done since it started. */
  long bytesWritten() {
    return writer.bytes();
  }

  JournalStats stats() {
    return new JournalStats(records, batches, writer.forces(), writer.bytes());
  }

  /**
   * Refuses further work, lets the writer make everything queued durable, and waits for it to
   * stop. Not from the writer thread.
   */
  void close() {
    lock.lock();
    try {
      closing = true;
      work.signal();
    } finally {
      lock.unlock();
    }
    Threads.joinUninterruptibly(thread);
  }

  /** Breaks the segment writer as a failing disk would. For tests. */
  void simulateDiskFailure() throws IOException {
    writer.breakChannel();
  }

  private CompletableFuture<Long> enqueue(Pending p) {
    lock.lock();
    try {
      if (closing) {
        throw new IllegalStateException("journal in " + folder + " is closed");
      }
      if (failure != null) {
        return CompletableFuture.failedFuture(failure);
      }
      queue.add(p);
      if (writerWaiting) {
        writerWaiting = false;
        work.signal();
      }
    } finally {
      lock.unlock();
    }
    return p.future;
  }

  private void runWriter() {
    ArrayList<Pending> batch = new ArrayList<>();
    try {
      while (true) {
        lock.lock();
        try {
          while (queue.isEmpty() && !closing) {
            writerWaiting = true;
            work.awaitUninterruptibly();
          }
          writerWaiting = false;
          if (queue.isEmpty()) {
            break;
          }
          ArrayList<Pending> taken = queue;
          queue = batch;
          batch = taken;
        } finally {
          lock.unlock();
        }
        onPass.run();
        write(batch);
        batch.clear();
      }
    } finally {
      try {
        if (broken()) {
          // Writing again after a failed write or force could put records whose callers were
          // told they failed on disk after all.
          writer.breakChannel();
        } else {
          writer.close();
        }
      } catch (IOException e) {
        // Nothing waits for this: every batch was already forced or failed.
      }
    }
  }

  private void write(List<Pending> batch) {
    long sequence = nextSequence;
    try {
      for (Pending p : batch) {
        p.first = sequence;
        if (p.one != null) {
          writer.append(sequence++, p.one);
        } else if (p.many != null) {
          for (byte[] r : p.many) {
            writer.append(sequence++, r);
          }
        } else {
          writer.roll(sequence);
        }
      }
      writer.sync();
    } catch (IOException | RuntimeException | Error e) {
      breakDown(e, batch);
      return;
    }
    records += sequence - nextSequence;
    batches++;
    nextSequence = sequence;
    durableSequence = sequence - 1;
    for (Pending p : batch) {
      p.future.complete(p.first);
    }
  }

  private void breakDown(Throwable cause, List<Pending> batch) {
    FsmException broken = new FsmException("the journal in " + folder + " is broken: writing "
        + writer.file().getFileName() + " failed (" + cause + "). It takes no more records;"
        + " records not yet acknowledged may or may not be on disk. Close the store and open it"
        + " again: opening keeps every record that reached the disk.", cause);
    ArrayList<Pending> waiting;
    lock.lock();
    try {
      failure = broken;
      waiting = queue;
      queue = new ArrayList<>();
    } finally {
      lock.unlock();
    }
    for (Pending p : batch) {
      p.future.completeExceptionally(broken);
    }
    for (Pending p : waiting) {
      p.future.completeExceptionally(broken);
    }
  }

  private boolean broken() {
    lock.lock();
    try {
      return failure != null;
    } finally {
      lock.unlock();
    }
  }

  /** An append, a batch of appends, or (neither) a roll, with the caller's future. */
  private static final class Pending {
    final byte[] one;
    final List<byte[]> many;
    final CompletableFuture<Long> future = new CompletableFuture<>();
    long first;

    Pending(byte[] one, List<byte[]> many) {
      this.one = one;
      this.many = many;
    }
  }
}

package dev.fsm.store.embedded.owner;

import dev.fsm.files.StoreFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The line of processes waiting for a store folder, so that each gets its turn in the order it
 * came (a ticket lock across processes). {@code owner.queue} holds the last ticket given; locking
 * its first 8 bytes guards that counter. Ticket {@code t} is the byte at {@code TICKETS + t},
 * locked by its holder from taking the ticket until it leaves the line. A waiter's turn comes
 * when it can lock every byte below its own: everyone ahead has left, having taken the store or
 * given up or died (the kernel releases a dead process's locks, so the line never jams).
 *
 * <p>Unlike retrying a failed try-lock, which a process can lose every time to newcomers, the
 * line grants the store in arrival order; and a blocked wait costs no CPU while 30 commands
 * queue on two cores.
 */
final class StoreQueue implements AutoCloseable {

  /** The line's file inside the store folder. */
  static final String FILE = "owner.queue";

  private static final long COUNTER_BYTES = 8;
  private static final long TICKETS = 1L << 20;

  private final FileChannel channel;
  private final long ticket;
  private FileLock mine;

  private StoreQueue(FileChannel channel, long ticket, FileLock mine) {
    this.channel = channel;
    this.ticket = ticket;
    this.mine = mine;
  }

  /** Takes the next ticket; the caller then waits with {@link #awaitTurn}. */
  static StoreQueue join(Path folder) throws IOException {
    FileChannel channel = StoreFiles.open(folder.resolve(FILE), StandardOpenOption.CREATE,
        StandardOpenOption.READ, StandardOpenOption.WRITE);
    try {
      try (FileLock counter = channel.lock(0, COUNTER_BYTES, false)) {
        ByteBuffer last = ByteBuffer.allocate(Long.BYTES);
        // Eight bytes of a local file come in one read; a new file has none (ticket 0 "left").
        long ticket = channel.read(last, 0) == Long.BYTES ? last.getLong(0) + 1 : 1;
        if (ticket <= 0 || ticket >= Long.MAX_VALUE - TICKETS) {
          ticket = 1;
        }
        channel.write(ByteBuffer.allocate(Long.BYTES).putLong(0, ticket), 0);
        // Taken before the counter is released, so whoever gets the next ticket waits for it.
        FileLock mine = channel.lock(TICKETS + ticket, 1, false);
        return new StoreQueue(channel, ticket, mine);
      }
    } catch (IOException | RuntimeException | Error e) {
      channel.close();
      throw e;
    }
  }

  /**
   * Blocks until everyone who took a ticket before this one has left the line. Not
   * interruptible: a command that gives up waiting is stopped, and its locks die with it.
   */
  void awaitTurn() throws IOException {
    channel.lock(TICKETS, ticket, false).release();
  }

  /** Whether someone ahead is still in line; for a quick check before blocking. */
  boolean anyoneAhead() throws IOException {
    FileLock ahead = channel.tryLock(TICKETS, ticket, false);
    if (ahead == null) {
      return true;
    }
    ahead.release();
    return false;
  }

  /** Leaves the line: the next one in it gets its turn. */
  @Override
  public void close() throws IOException {
    if (mine != null) {
      mine = null;
      // Closing the channel releases this process's locks on the file, the ticket with them.
      channel.close();
    }
  }
}

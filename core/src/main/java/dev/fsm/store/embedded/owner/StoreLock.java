package dev.fsm.store.embedded.owner;

import dev.fsm.FsmException;
import dev.fsm.files.DiskFailure;
import dev.fsm.files.FolderGuard;
import dev.fsm.files.StoreFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One process owns an embedded store at a time. The claim is an OS lock on {@code owner.lock} in
 * the store folder, so the kernel releases it when the owner dies, even by kill -9: a lock left
 * by a dead process never blocks the next open. The owner's pid and purpose are written into the
 * file so others can say who holds it. Processes that wait for the store take turns in the
 * order they came ({@link StoreQueue}).
 *
 * <p>A process holds one channel per lock file: closing any channel of a file drops all of the
 * process's POSIX locks on it, so a second open in this process is refused before it opens one.
 */
public final class StoreLock implements AutoCloseable {

  /** The lock file's name inside the store folder. */
  public static final String FILE = "owner.lock";

  private static final long NOTICE_AFTER_NANOS = 1_000_000_000L;
  private static final long POLL_MILLIS = 10;
  private static final long ASK_OWNER_NANOS = 100_000_000L;
  /** Store folders (real paths) this process holds or is waiting for. */
  private static final Set<Path> HERE = ConcurrentHashMap.newKeySet();

  private final Path key;
  private final FileChannel channel;
  private final FileLock lock;

  private StoreLock(Path key, FileChannel channel, FileLock lock) {
    this.key = key;
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the store folder for this process, or refuses at once when another holds it.
   *
   * @param purpose what the owner is doing, e.g. {@code fsm run}, shown to others
   * @throws StoreInUseException when another process, or this one, holds it
   */
  public static StoreLock acquire(Path storeFolder, String purpose) {
    return acquire(storeFolder, purpose, StoreWaiting.REFUSE);
  }

  /**
   * Takes the store folder for this process, creating it (0700) when missing; with {@link
   * StoreWaiting#inLine} waits its turn while others hold it.
   *
   * @throws StoreInUseException when this process holds it, or another does and {@code waiting}
   *     says not to wait (or that the holder serves others)
   * @throws FsmException when the folder is unsafe or cannot be written, saying how to fix it
   */
  public static StoreLock acquire(Path storeFolder, String purpose, StoreWaiting waiting) {
    Path key;
    try {
      FolderGuard.secure(storeFolder);
      key = storeFolder.toRealPath();
    } catch (IOException e) {
      throw DiskFailure.of(storeFolder, "cannot use store folder " + storeFolder, e);
    }
    if (!HERE.add(key)) {
      throw new StoreInUseException("store " + storeFolder + " is already open in this process",
          OptionalLong.of(ProcessHandle.current().pid()));
    }
    Path file = storeFolder.resolve(FILE);
    FileChannel channel = null;
    try {
      channel = StoreFiles.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
          StandardOpenOption.WRITE);
      FileLock lock = waiting.inLine()
          ? inLine(storeFolder, channel, waiting) : channel.tryLock();
      if (lock == null) {
        throw inUse(storeFolder, channel);
      }
      String owner = "pid=" + ProcessHandle.current().pid() + "\npurpose=" + purpose
          + "\nsince=" + Instant.now() + "\n";
      // Not forced: others read it while the lock holds, from the same page cache, and the
      // lock and what the file says of its holder end with the holder anyway.
      channel.truncate(0);
      channel.write(ByteBuffer.wrap(owner.getBytes(StandardCharsets.UTF_8)), 0);
      return new StoreLock(key, channel, lock);
    } catch (OverlappingFileLockException e) {
      giveUp(key, channel);
      throw new StoreInUseException("store " + storeFolder + " is already open in this process",
          OptionalLong.of(ProcessHandle.current().pid()));
    } catch (IOException e) {
      giveUp(key, channel);
      throw DiskFailure.of(file, "cannot lock store " + storeFolder, e);
    } catch (RuntimeException | Error e) {
      giveUp(key, channel);
      throw e;
    }
  }

  /**
   * Waits in the store's line, then for the holder to let go; gives up when the holder serves
   * others, whom the caller can then reach.
   */
  private static FileLock inLine(Path folder, FileChannel owner, StoreWaiting waiting)
      throws IOException {
    long started = System.nanoTime();
    try (StoreQueue line = StoreQueue.join(folder);
        WaitNotice notice = new WaitNotice(waiting.notice(),
            () -> "waiting for " + holder(owner) + " to release store " + folder)) {
      if (line.anyoneAhead()) {
        notice.after(NOTICE_AFTER_NANOS);
        line.awaitTurn();
      }
      long askAt = System.nanoTime();
      while (true) {
        FileLock lock = owner.tryLock();
        if (lock != null) {
          return lock;
        }
        long now = System.nanoTime();
        if (now - askAt >= 0) {
          if (waiting.servedElsewhere().getAsBoolean()) {
            throw inUse(folder, owner);
          }
          askAt = now + ASK_OWNER_NANOS;
        }
        if (now - started >= NOTICE_AFTER_NANOS) {
          notice.now();
        }
        try {
          Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw inUse(folder, owner);
        }
      }
    }
  }

  /** Releases the store; the owner file stays and is overwritten by the next owner. */
  @Override
  public void close() {
    try {
      lock.release();
    } catch (IOException e) {
      // The channel's close below releases the lock as well.
    }
    giveUp(key, channel);
  }

  private static StoreInUseException inUse(Path storeFolder, FileChannel channel) {
    Owner owner = Owner.read(channel);
    return new StoreInUseException("store " + storeFolder + " is in use by " + owner.describe()
        + "; wait for it to finish, or stop it, then try again", owner.pid());
  }

  private static String holder(FileChannel channel) {
    return Owner.read(channel).describe();
  }

  private static void giveUp(Path key, FileChannel channel) {
    try {
      if (channel != null) {
        channel.close();
      }
    } catch (IOException e) {
      // Nothing more to release.
    } finally {
      HERE.remove(key);
    }
  }

  /** What {@code owner.lock} says about its holder. */
  private record Owner(OptionalLong pid, String purpose) {

    /** Read through the channel already open: another would drop this process's locks. */
    static Owner read(FileChannel channel) {
      OptionalLong pid = OptionalLong.empty();
      String purpose = "";
      try {
        ByteBuffer text = ByteBuffer.allocate(512);
        channel.read(text, 0);
        for (String line : new String(text.array(), 0, text.position(),
            StandardCharsets.UTF_8).split("\n")) {
          if (line.startsWith("pid=")) {
            pid = OptionalLong.of(Long.parseLong(line.substring(4).strip()));
          } else if (line.startsWith("purpose=")) {
            purpose = line.substring(8).strip();
          }
        }
      } catch (IOException | NumberFormatException e) {
        // The owner may be between locking and writing its pid; say what we know.
      }
      return new Owner(pid, purpose);
    }

    String describe() {
      return pid.isPresent() ? "process " + pid.getAsLong()
          + (purpose.isEmpty() ? "" : " (" + purpose + ")") : "another process";
    }
  }
}

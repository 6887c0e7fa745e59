package dev.fsm.store.embedded;

import dev.fsm.FsmException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.OptionalLong;

/**
 * One process owns an embedded store at a time. The claim is an OS lock on {@code owner.lock} in
 * the store folder, so the kernel releases it when the owner dies, even by kill -9: a lock left
 * by a dead process never blocks the next open. The owner's pid and purpose are written into the
 * file so others can say who holds it.
 */
public final class StoreLock implements AutoCloseable {

  /** The lock file's name inside the store folder. */
  public static final String FILE = "owner.lock";

  private final FileChannel channel;
  private final FileLock lock;

  private StoreLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the store folder for this process.
   *
   * @param purpose what the owner is doing, e.g. {@code fsm run}, shown to others
   * @throws StoreInUseException when another process, or this one, holds it
   */
  public static StoreLock acquire(Path storeFolder, String purpose) {
    Path file = storeFolder.resolve(FILE);
    FileChannel channel = null;
    try {
      Files.createDirectories(storeFolder);
      channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
          StandardOpenOption.WRITE);
      FileLock lock = channel.tryLock();
      if (lock == null) {
        channel.close();
        throw inUse(storeFolder, file);
      }
      String owner = "pid=" + ProcessHandle.current().pid() + "\npurpose=" + purpose
          + "\nsince=" + Instant.now() + "\n";
      channel.truncate(0);
      channel.write(ByteBuffer.wrap(owner.getBytes(StandardCharsets.UTF_8)), 0);
      channel.force(true);
      return new StoreLock(channel, lock);
    } catch (OverlappingFileLockException e) {
      closeQuietly(channel);
      throw new StoreInUseException("store " + storeFolder + " is already open in this process",
          OptionalLong.of(ProcessHandle.current().pid()));
    } catch (IOException e) {
      closeQuietly(channel);
      throw new FsmException("cannot lock store " + storeFolder + ": " + e.getMessage()
          + " (check that the folder is writable)", e);
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
    closeQuietly(channel);
  }

  private static StoreInUseException inUse(Path storeFolder, Path file) {
    OptionalLong pid = OptionalLong.empty();
    String purpose = "";
    try {
      for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
        if (line.startsWith("pid=")) {
          pid = OptionalLong.of(Long.parseLong(line.substring(4).strip()));
        } else if (line.startsWith("purpose=")) {
          purpose = line.substring(8).strip();
        }
      }
    } catch (IOException | NumberFormatException e) {
      // The owner may be between locking and writing its pid; say what we know.
    }
    String who = pid.isPresent() ? "process " + pid.getAsLong()
        + (purpose.isEmpty() ? "" : " (" + purpose + ")") : "another process";
    return new StoreInUseException("store " + storeFolder + " is in use by " + who
        + "; wait for it to finish, or stop it, then try again", pid);
  }

  private static void closeQuietly(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException e) {
        // Nothing more to release.
      }
    }
  }
}

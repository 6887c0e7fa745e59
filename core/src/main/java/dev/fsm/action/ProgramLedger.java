package dev.fsm.action;

import dev.fsm.files.StoreFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * The programs a runner has running, one small file each in a folder beside the store: a
 * program leads its own process group, so a runner killed with SIGKILL leaves it running, and
 * the next runner must stop it before the task's action can run again. Each file is named by
 * the program's pid (its group id) and holds its start time, so a reused pid is never killed.
 */
public final class ProgramLedger {

  private static final String TEMP = ".tmp";
  private static final Duration START_SLACK = Duration.ofSeconds(1);

  private final Path folder;

  private ProgramLedger(Path folder) {
    this.folder = folder;
  }

  /** The ledger kept in {@code folder}, created when first written. */
  public static ProgramLedger in(Path folder) {
    return new ProgramLedger(folder);
  }

  /**
   * Stops (SIGKILL) every program group a previous runner recorded and never removed, and
   * forgets them. Call once at start, holding the store.
   *
   * @return how many groups were still running
   */
  public int stopLeftovers() {
    if (!Files.isDirectory(folder)) {
      return 0;
    }
    int stopped = 0;
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(folder)) {
      for (Path entry : entries) {
        if (stop(entry)) {
          stopped++;
        }
        Files.deleteIfExists(entry);
      }
    } catch (IOException e) {
      return stopped;
    }
    return stopped;
  }

  /** Records a program started as the leader of its own group. */
  void started(Process process) {
    Optional<Instant> start = process.info().startInstant();
    try {
      StoreFiles.createFolder(folder);
      // Written beside and renamed, so a runner killed mid-write never leaves a record without
      // its start time (one the next runner would have to skip). No fsync: the record must
      // outlive the runner, not the machine, whose restart ends the program anyway.
      Path record = folder.resolve(Long.toString(process.pid()));
      Path temp = folder.resolve(process.pid() + TEMP);
      try (FileChannel out = StoreFiles.createFresh(temp, StandardOpenOption.WRITE)) {
        ByteBuffer bytes = ByteBuffer.wrap(start.map(Instant::toString).orElse("")
            .getBytes(StandardCharsets.UTF_8));
        while (bytes.hasRemaining()) {
          out.write(bytes);
        }
      }
      Files.move(temp, record, StandardCopyOption.ATOMIC_MOVE,
          StandardCopyOption.REPLACE_EXISTING);
    } catch (IOException e) {
      // Best effort: without the record only a runner crash can leave the program running.
    }
  }

  /** Forgets a program once it and its group are gone. */
  void ended(Process process) {
    try {
      Files.deleteIfExists(folder.resolve(Long.toString(process.pid())));
    } catch (IOException e) {
      // A stale record is harmless: its start time no longer matches a live process.
    }
  }

  private static boolean stop(Path entry) throws IOException {
    long pid;
    try {
      String name = entry.getFileName().toString();
      pid = Long.parseLong(name.endsWith(TEMP) ? name.substring(0, name.length() - TEMP.length())
          : name);
    } catch (NumberFormatException e) {
      return false;
    }
    String recorded = Files.readString(entry).strip();
    Optional<ProcessHandle> leader = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
    if (leader.isPresent()) {
      // A live process with this pid is the program only if it started when the program did;
      // otherwise the pid was reused and its group is somebody else's.
      Optional<Instant> started = leader.get().info().startInstant();
      if (started.isEmpty() || !sameStart(recorded, started.get())) {
        return false;
      }
      ProcessTree.killGroup(pid);
      leader.get().destroyForcibly();
      return true;
    }
    // The leader is gone; a group id is not reused while any member lives, so a live group
    // with this id is still the program's children.
    return ProcessTree.killGroup(pid);
  }

  /**
   * Whether a live process started when the recorded program did. The JVM derives start
   * instants from the boot time in /proc/stat, which the kernel rounds to whole seconds and
   * which can differ by one second between two processes reading it, so one second of slack.
   */
  static boolean sameStart(String recorded, Instant live) {
    try {
      Duration apart = Duration.between(Instant.parse(recorded), live).abs();
      return apart.compareTo(START_SLACK) <= 0;
    } catch (DateTimeParseException e) {
      return false;
    }
  }
}

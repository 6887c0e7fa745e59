package dev.fsm.action.supervisor;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What Linux's {@code /proc} tells about processes: their state, group and start time, and
 * whether their environment holds a marking variable. Used by the runner to find an attempt's
 * processes and by the supervisor to find a runner's.
 */
public final class Proc {

  private static final Path ROOT = Path.of("/proc");

  /** Whether this system has {@code /proc}. */
  public static final boolean PRESENT = Files.isDirectory(ROOT.resolve("self"));

  /** Where the state is among {@link #statFields}: field 3 of {@code proc(5)}. */
  public static final int STATE = 0;

  /** Where the process group is among {@link #statFields}: field 5 of {@code proc(5)}. */
  public static final int GROUP = 2;

  /** Where the kernel's flags are among {@link #statFields}: field 9 of {@code proc(5)}. */
  private static final int FLAGS = 6;

  private static final long PF_EXITING = 0x00000004;

  private static final long PF_KTHREAD = 0x00200000;

  /** Reads of an empty environment before it counts as one: 1+2+4+8+16+32 ms of pauses. */
  private static final int EMPTY_READS = 7;

  /** Where the start time is among {@link #statFields}: field 22 of {@code proc(5)}. */
  public static final int START_TIME = 19;

  private Proc() {}

  /** The directory of process {@code pid}. */
  public static Path entry(long pid) {
    return ROOT.resolve(Long.toString(pid));
  }

  /** The pids of every process now, in no order; empty without {@code /proc}. */
  public static List<Long> pids() {
    List<Long> pids = new ArrayList<>();
    if (!PRESENT) {
      return pids;
    }
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(ROOT)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (!name.isEmpty() && Character.isDigit(name.charAt(0))) {
          pids.add(Long.parseLong(name));
        }
      }
    } catch (IOException | NumberFormatException e) {
      return pids;
    }
    return pids;
  }

  /**
   * The fields of {@code /proc/PID/stat} after the command name: state, ppid, pgrp, session, ...,
   * and at {@link #START_TIME} the start time in clock ticks since boot; null when the process is
   * gone.
   */
  public static String[] statFields(Path procEntry) {
    try {
      String stat = Files.readString(procEntry.resolve("stat"));
      // The command name is in parentheses and may itself hold spaces and parentheses.
      return stat.substring(stat.lastIndexOf(')') + 2).split(" ", START_TIME + 2);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * True when {@code fields} (of {@link #statFields}) are those of a zombie, a dead process or
   * one already exiting (PF_EXITING: its environment and files are going, no signal is needed).
   */
  public static boolean ended(String[] fields) {
    return fields == null || fields[STATE].equals("Z") || fields[STATE].equals("X")
        || (Long.parseLong(fields[FLAGS]) & PF_EXITING) != 0;
  }

  /**
   * True when the process's environment holds {@code mark} ({@code NAME=VALUE}) as an entry.
   * Linux shows an empty environment while a process is between two programs in {@code execve}
   * and while it exits (or fails to read it with ESRCH), so an empty one is read again until it
   * fills or the process has ended.
   */
  public static boolean marked(Path procEntry, byte[] mark) {
    long pause = 1;
    for (int read = 1; ; read++) {
      byte[] env;
      try {
        env = Files.readAllBytes(procEntry.resolve("environ"));
      } catch (AccessDeniedException | NoSuchFileException e) {
        // Another user's process, or gone: not ours to stop.
        return false;
      } catch (IOException e) {
        // ESRCH: the process is between two of its states; its stat says which.
        env = new byte[0];
      }
      if (env.length > 0) {
        return holds(env, mark);
      }
      String[] fields = statFields(procEntry);
      if (ended(fields) || kernelThread(fields) || read == EMPTY_READS) {
        return false;
      }
      try {
        Thread.sleep(pause);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
      pause *= 2;
    }
  }

  private static boolean holds(byte[] env, byte[] mark) {
    for (int start = 0; start < env.length; ) {
      int end = start;
      while (end < env.length && env[end] != 0) {
        end++;
      }
      if (end - start == mark.length && Arrays.equals(env, start, end, mark, 0, mark.length)) {
        return true;
      }
      start = end + 1;
    }
    return false;
  }

  /** Kernel threads have no environment at all; their flags say so (PF_KTHREAD). */
  private static boolean kernelThread(String[] fields) {
    return (Long.parseLong(fields[FLAGS]) & PF_KTHREAD) != 0;
  }
}

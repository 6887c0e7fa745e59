package dev.fsm.action;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A program and every process it started, stopped together. The program runs as the leader of
 * its own process group (see {@link ProgramRunner}), so a child that was orphaned by a double
 * fork is still found by its group in {@code /proc}; children that left the group are still
 * found while they descend from the program. Without {@code /proc} only descendants are found.
 */
final class ProcessTree {

  private static final Path PROC = Path.of("/proc");
  private static final boolean HAS_PROC = Files.isDirectory(PROC.resolve("self"));

  private final Process process;
  private final boolean ownGroup;

  /**
   * @param ownGroup true when the program was started as the leader of a new process group, so
   *     its pid is the group's id
   */
  ProcessTree(Process process, boolean ownGroup) {
    this.process = process;
    this.ownGroup = ownGroup && HAS_PROC;
  }

  /** Sends SIGTERM, or SIGKILL when {@code force}, to every live process of the tree. */
  void signal(boolean force) {
    if (force) {
      process.destroyForcibly();
    } else {
      process.destroy();
    }
    for (ProcessHandle member : members()) {
      if (force) {
        member.destroyForcibly();
      } else {
        member.destroy();
      }
    }
  }

  /**
   * Waits until every process of the tree is gone or {@code deadlineNanos} (of {@link
   * System#nanoTime()}) passes.
   *
   * @return true when none is left
   */
  boolean awaitGone(long deadlineNanos) throws InterruptedException {
    long remaining = deadlineNanos - System.nanoTime();
    if (!process.waitFor(Math.max(0, remaining), TimeUnit.NANOSECONDS)) {
      return false;
    }
    // Orphans are not children of ours, so there is nothing to wait on but their absence;
    // polling backs off so a program ignoring SIGTERM costs little CPU over a long grace.
    long pause = 5;
    while (!members().isEmpty()) {
      remaining = deadlineNanos - System.nanoTime();
      if (remaining <= 0) {
        return false;
      }
      Thread.sleep(Math.min(pause, TimeUnit.NANOSECONDS.toMillis(remaining) + 1));
      pause = Math.min(pause * 2, 100);
    }
    return true;
  }

  /** The live processes of the tree besides the program itself, zombies left out. */
  List<ProcessHandle> members() {
    Map<Long, ProcessHandle> found = new LinkedHashMap<>();
    if (process.isAlive()) {
      // Each walk reads every process of the system; a dead program has no descendants left.
      process.descendants().filter(ProcessHandle::isAlive).forEach(h -> found.put(h.pid(), h));
    }
    if (ownGroup) {
      for (long pid : groupMembers(process.pid())) {
        ProcessHandle.of(pid).ifPresent(h -> found.putIfAbsent(pid, h));
      }
    }
    found.remove(process.pid());
    found.values().removeIf(h -> HAS_PROC && isZombie(h.pid()));
    return List.copyOf(found.values());
  }

  /**
   * Sends SIGKILL to every live member of a process group that is not ours (a program a killed
   * runner left behind).
   *
   * @return true when any member was alive
   */
  static boolean killGroup(long group) {
    if (!HAS_PROC) {
      return false;
    }
    boolean any = false;
    for (long pid : groupMembers(group)) {
      any |= ProcessHandle.of(pid).map(ProcessHandle::destroyForcibly).orElse(false);
    }
    return any;
  }

  /**
   * Live processes, outside the tree, whose environment holds every one of {@code marks}: what
   * an attempt started that left both its process group and its session ({@code setsid}), found
   * by the variables every process of the attempt inherits. It reads the environment of every
   * process of this user, so it is for rare moments (a stop, pipes held after the exit), not for
   * every attempt.
   */
  static List<ProcessHandle> strays(Map<String, String> marks) {
    List<ProcessHandle> found = new ArrayList<>();
    if (!HAS_PROC) {
      return found;
    }
    List<byte[]> wanted = marks.entrySet().stream()
        .map(e -> (e.getKey() + "=" + e.getValue()).getBytes(StandardCharsets.UTF_8)).toList();
    long self = ProcessHandle.current().pid();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.isEmpty() || !Character.isDigit(name.charAt(0)) || Long.parseLong(name) == self
            || !holdsAll(entry.resolve("environ"), wanted)) {
          continue;
        }
        ProcessHandle.of(Long.parseLong(name)).filter(h -> !isZombie(h.pid()))
            .ifPresent(found::add);
      }
    } catch (IOException e) {
      return found;
    }
    return found;
  }

  private static boolean holdsAll(Path environ, List<byte[]> wanted) {
    byte[] env;
    try {
      env = Files.readAllBytes(environ);
    } catch (IOException e) {
      // Another user's process, or gone: not ours to stop.
      return false;
    }
    for (byte[] variable : wanted) {
      if (!holds(env, variable)) {
        return false;
      }
    }
    return true;
  }

  /** True when {@code variable} is one of the NUL-separated entries of {@code env}. */
  private static boolean holds(byte[] env, byte[] variable) {
    int start = 0;
    while (start < env.length) {
      int end = start;
      while (end < env.length && env[end] != 0) {
        end++;
      }
      if (end - start == variable.length
          && Arrays.equals(env, start, end, variable, 0, variable.length)) {
        return true;
      }
      start = end + 1;
    }
    return false;
  }

  private static List<Long> groupMembers(long group) {
    List<Long> pids = new ArrayList<>();
    try (DirectoryStream<Path> entries = Files.newDirectoryStream(PROC)) {
      for (Path entry : entries) {
        String name = entry.getFileName().toString();
        if (name.isEmpty() || !Character.isDigit(name.charAt(0))) {
          continue;
        }
        String[] fields = statFields(entry);
        if (fields != null && !fields[0].equals("Z") && Long.parseLong(fields[2]) == group) {
          pids.add(Long.parseLong(name));
        }
      }
    } catch (IOException e) {
      return pids;
    }
    return pids;
  }

  /** True while the process exists and is not a zombie. */
  static boolean running(ProcessHandle h) {
    return h.isAlive() && !(HAS_PROC && isZombie(h.pid()));
  }

  private static boolean isZombie(long pid) {
    String[] fields = statFields(PROC.resolve(Long.toString(pid)));
    return fields == null || fields[0].equals("Z") || fields[0].equals("X");
  }

  /** The fields of {@code /proc/PID/stat} after the command name: state, ppid, pgrp, ... */
  private static String[] statFields(Path procEntry) {
    try {
      String stat = Files.readString(procEntry.resolve("stat"));
      // The command name is in parentheses and may itself hold spaces and parentheses.
      return stat.substring(stat.lastIndexOf(')') + 2).split(" ", 5);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }
}

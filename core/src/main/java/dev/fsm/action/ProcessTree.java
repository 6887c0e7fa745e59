package dev.fsm.action;

import dev.fsm.action.supervisor.Proc;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A program and every process it started, stopped together. The program runs as the leader of
 * its own process group (see {@link ProgramRunner}), so a child that was orphaned by a double
 * fork is still found by its group in {@code /proc}; children that left the group are still
 * found while they descend from the program, and orphans that left it (a double fork and
 * {@code setsid}) by the variable that marks the attempt in their environment. Without
 * {@code /proc} only descendants are found.
 */
final class ProcessTree {

  private static final boolean HAS_PROC = Proc.PRESENT;

  private final Process process;
  private final boolean ownGroup;
  private final byte[] mark;
  private final long startTicks;

  /**
   * @param ownGroup true when the program was started as the leader of a new process group, so
   *     its pid is the group's id
   * @param mark the {@code NAME=VALUE} variable only this attempt's processes have
   */
  ProcessTree(Process process, boolean ownGroup, String mark) {
    this.process = process;
    this.ownGroup = ownGroup && HAS_PROC;
    this.mark = mark.getBytes(StandardCharsets.UTF_8);
    String[] fields = HAS_PROC ? Proc.statFields(Proc.entry(process.pid())) : null;
    // Only processes started since the program can be its strays; 0 when it is gone already.
    this.startTicks = fields == null ? 0 : Long.parseLong(fields[Proc.START_TIME]);
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
    if (HAS_PROC) {
      // Without a group of its own the program's group is the runner's: match none by group.
      for (long pid : scan(ownGroup ? process.pid() : -1, mark, startTicks)) {
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
    for (long pid : scan(group, null, 0)) {
      any |= ProcessHandle.of(pid).map(ProcessHandle::destroyForcibly).orElse(false);
    }
    return any;
  }

  /**
   * Live members of a process group, and with a {@code mark}, live processes started since
   * {@code sinceTicks} whose environment holds it. Only the few processes younger than the
   * program have their environment read.
   */
  private static List<Long> scan(long group, byte[] mark, long sinceTicks) {
    List<Long> pids = new ArrayList<>();
    long self = ProcessHandle.current().pid();
    for (long pid : Proc.pids()) {
      Path entry = Proc.entry(pid);
      String[] fields = Proc.statFields(entry);
      if (Proc.ended(fields)) {
        continue;
      }
      if (Long.parseLong(fields[Proc.GROUP]) == group || mark != null && pid != self
          && Long.parseLong(fields[Proc.START_TIME]) >= sinceTicks && Proc.marked(entry, mark)) {
        pids.add(pid);
      }
    }
    return pids;
  }

  private static boolean isZombie(long pid) {
    return Proc.ended(Proc.statFields(Proc.entry(pid)));
  }
}

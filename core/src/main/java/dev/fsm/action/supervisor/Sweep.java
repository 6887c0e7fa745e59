package dev.fsm.action.supervisor;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One stop of every process that carries a runner's mark in its environment: SIGTERM, then
 * SIGKILL to what is left after the grace. Processes are found by reading {@code /proc}, so
 * orphans of a double fork and processes that left the program's group and session are found
 * too; a process without the mark is never signalled.
 */
final class Sweep {

  /** How long SIGKILL is sent again to processes that forked while being killed. */
  private static final long KILL_FOR_NANOS = TimeUnit.SECONDS.toNanos(2);

  private final byte[] mark;
  private final Duration grace;
  private final long self = ProcessHandle.current().pid();

  /**
   * Only processes started since the runner can carry its mark; older ones (and their
   * environments, which {@link Proc#marked} may read again when empty) are passed over.
   */
  private final long sinceTicks;

  /**
   * @param mark the {@code NAME=VALUE} environment entry of the runner's programs
   * @param grace how long a process has between SIGTERM and SIGKILL
   * @param sinceTicks the runner's start time in clock ticks since boot ({@link
   *     Proc#START_TIME}); 0 when not known
   */
  Sweep(String mark, Duration grace, long sinceTicks) {
    this.mark = mark.getBytes(StandardCharsets.UTF_8);
    this.grace = grace;
    this.sinceTicks = sinceTicks;
  }

  /** The live processes carrying the mark, zombies left out. */
  List<ProcessHandle> find() {
    List<ProcessHandle> found = new ArrayList<>();
    for (long pid : Proc.pids()) {
      if (pid == self) {
        continue;
      }
      // The handle is taken before the environment is read: it holds the start time, and a
      // signal through it reaches only that process, never a later one reusing the pid.
      Optional<ProcessHandle> handle = ProcessHandle.of(pid);
      Path entry = Proc.entry(pid);
      String[] fields = Proc.statFields(entry);
      if (handle.isPresent() && !Proc.ended(fields)
          && Long.parseLong(fields[Proc.START_TIME]) >= sinceTicks && Proc.marked(entry, mark)) {
        found.add(handle.get());
      }
    }
    return found;
  }

  /**
   * Stops the marked processes: SIGTERM to each, SIGKILL to those still running after the grace.
   *
   * @param takeNew asked during the stop: whether marked processes found after the first look
   *     are stopped too (they may be the runner's next programs once it gave a newer deadline)
   * @return how many processes were signalled
   */
  int run(BooleanSupplier takeNew) throws InterruptedException {
    Map<Long, ProcessHandle> targets = new LinkedHashMap<>();
    addNew(targets, false);
    if (targets.isEmpty()) {
      return 0;
    }
    long killAt = System.nanoTime() + grace.toNanos();
    long pause = 5;
    while (true) {
      if (takeNew.getAsBoolean()) {
        addNew(targets, false);
      }
      if (targets.values().stream().noneMatch(Sweep::running)) {
        return targets.size();
      }
      long left = killAt - System.nanoTime();
      if (left <= 0) {
        break;
      }
      Thread.sleep(Math.min(pause, TimeUnit.NANOSECONDS.toMillis(left) + 1));
      pause = Math.min(pause * 2, 50);
    }
    long giveUp = System.nanoTime() + KILL_FOR_NANOS;
    while (true) {
      if (takeNew.getAsBoolean()) {
        addNew(targets, true);
      }
      List<ProcessHandle> alive = targets.values().stream().filter(Sweep::running).toList();
      if (alive.isEmpty() || System.nanoTime() - giveUp > 0) {
        return targets.size();
      }
      alive.forEach(ProcessHandle::destroyForcibly);
      Thread.sleep(10);
    }
  }

  private void addNew(Map<Long, ProcessHandle> targets, boolean force) {
    for (ProcessHandle h : find()) {
      if (targets.putIfAbsent(h.pid(), h) == null) {
        if (force) {
          h.destroyForcibly();
        } else {
          h.destroy();
        }
      }
    }
  }

  /** Alive and not a zombie: a killed orphan waits as a zombie until init reaps it. */
  private static boolean running(ProcessHandle h) {
    return h.isAlive() && !Proc.ended(Proc.statFields(Proc.entry(h.pid())));
  }
}

package dev.fsm.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * A log that the actions of the fleet tests append to: one line when a program starts, one when
 * it ends by itself, one when it is told to stop (SIGTERM), each with the task, state, attempt,
 * the pid of the runner that started it (from {@code FSM_RUNNER}), its own pid and the time in
 * epoch nanoseconds. So a test can see, outside fsm, which runner ran what and when, and check
 * that no two runs of one task ever overlapped.
 */
final class ActionLog {

  /** What a line says happened. */
  enum Kind { START, END, TERM }

  /** One line of the log. */
  record Line(Kind kind, String task, String state, int attempt, long runner, long program,
      long nanos) {}

  /**
   * One run of a program, from its start line to its end or term line; {@code end} is
   * {@link Long#MAX_VALUE} while no such line came. {@code id} numbers the runs in the order
   * they started: pids wrap (at 32768 here) and are reused within minutes.
   */
  record Run(long id, String task, String state, long runner, long program, long start,
      long end, boolean termed) {
    boolean open() {
      return end == Long.MAX_VALUE;
    }

    Run ended(long at, boolean term) {
      return new Run(id, task, state, runner, program, start, at, term);
    }
  }

  private final Path file;

  ActionLog(Path file) {
    this.file = file;
  }

  Path file() {
    return file;
  }

  /**
   * Writes an executable program that logs its start, sleeps {@code minMillis} up to
   * {@code minMillis + spreadMillis} (picked from its pid: dash has no $RANDOM, and a fork for
   * one would cost more than it spares), logs its end and exits 0. On SIGTERM it logs that and
   * exits at once: the sleep runs in the background so the trap is not held up by it.
   * The trap ignores SIGTERM before it runs {@code date}: a runner signals every process of
   * the attempt again while it waits, and an ignored signal stays ignored in a child.
   */
  void writeProgram(Path program, int minMillis, int spreadMillis) throws IOException {
    write(program, "ms=$(( " + minMillis + " + $$ % " + Math.max(1, spreadMillis) + " ))\n"
        + "sleep $(( ms / 1000 )).$(printf %03d $(( ms % 1000 ))) &\n"
        + "wait $!\n");
  }

  /**
   * The same, but running until file {@code go} exists (looking every 100 ms) instead of for a
   * time: a program that cannot end by itself while a test needs it running.
   */
  void writeProgramUntil(Path program, Path go) throws IOException {
    write(program, "while [ ! -e '" + go + "' ]; do sleep 0.1 & wait $!; done\n");
  }

  private void write(Path program, String work) throws IOException {
    String line = "printf '%s %s %s %s %s %s %s\\n' KIND \"$FSM_TASK_ID\" \"$FSM_STATE\""
        + " \"$FSM_ATTEMPT\" \"$r\" $$ \"$(date +%s%N)\" >> '" + file + "'";
    String script = "#!/bin/sh\n"
        + "cat >/dev/null\n"
        // FSM_RUNNER is runner:PID@HOST/wN, or runner:PID-SUFFIX@…: the digits are the pid.
        + "r=${FSM_RUNNER#runner:}; r=${r%%[!0-9]*}\n"
        // Ignored first, so `date` in the trap is immune to a runner's repeated SIGTERMs.
        + "trap 'trap \"\" TERM; " + line.replace("KIND", "term").replace("'", "'\\''")
        + "; exit 143' TERM\n"
        + line.replace("KIND", "start") + "\n"
        + work
        + line.replace("KIND", "end") + "\n";
    Files.writeString(program, script, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(program, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** Every whole line so far (a line being written is left for the next read). */
  List<Line> lines() {
    String text;
    try {
      text = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      throw new AssertionError("cannot read " + file, e);
    }
    List<Line> lines = new ArrayList<>();
    int from = 0;
    for (int nl = text.indexOf('\n'); nl >= 0; from = nl + 1, nl = text.indexOf('\n', from)) {
      String[] w = text.substring(from, nl).split(" ");
      if (w.length != 7) {
        throw new AssertionError("a malformed line in " + file + ": " + text.substring(from, nl));
      }
      lines.add(new Line(Kind.valueOf(w[0].toUpperCase(java.util.Locale.ROOT)), w[1], w[2],
          Integer.parseInt(w[3]), Long.parseLong(w[4]), Long.parseLong(w[5]),
          Long.parseLong(w[6])));
    }
    return lines;
  }

  /** Every run by its id, in the order they started. */
  Map<Long, Run> runs() {
    Map<Long, Run> runs = new LinkedHashMap<>();
    Map<Long, Long> latestByPid = new java.util.HashMap<>();
    for (Line l : lines()) {
      if (l.kind() == Kind.START) {
        long id = runs.size();
        runs.put(id, new Run(id, l.task(), l.state(), l.runner(), l.program(), l.nanos(),
            Long.MAX_VALUE, false));
        latestByPid.put(l.program(), id);
      } else {
        // A pid is not reused while its process lives, so its last start is this line's run.
        Long id = latestByPid.get(l.program());
        Run r = id == null ? null : runs.get(id);
        if (r != null && r.open()) {
          runs.put(id, r.ended(l.nanos(), l.kind() == Kind.TERM));
        }
      }
    }
    return runs;
  }

  /** The runs started by runner {@code pid} that have not ended yet. */
  List<Run> open(long runner) {
    return runs().values().stream().filter(r -> r.runner() == runner && r.open()).toList();
  }

  /**
   * Whether {@code run}'s process is alive: its pid names a live process that started before
   * the run's start line (a later one reuses the pid).
   */
  static boolean alive(Run run) {
    return ProcessHandle.of(run.program()).filter(ProcessHandle::isAlive)
        .filter(h -> h.info().startInstant().map(t -> t.getEpochSecond() * 1_000_000_000L
            + t.getNano() <= run.start() + 100_000_000L).orElse(true))
        .isPresent();
  }

  /** Kills {@code run}'s process if it is still alive, as a test's cleanup. */
  static void kill(Run run) {
    if (alive(run)) {
      ProcessHandle.of(run.program()).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  /**
   * Why two runs of one task overlapped, or empty when none did. A run with no end line takes
   * its end from {@code endOfOpen}, by run id (e.g. when the test saw its process gone); a run
   * for which that is unknown too counts as running still, so anything after it overlaps.
   */
  static Optional<String> overlap(Map<Long, Run> runs, LongFunction<Long> endOfOpen) {
    Map<String, List<Run>> byTask = new LinkedHashMap<>();
    for (Run r : runs.values()) {
      Run closed = r;
      if (r.open()) {
        Long end = endOfOpen.apply(r.id());
        closed = r.ended(end == null ? Long.MAX_VALUE : end, false);
      }
      byTask.computeIfAbsent(r.task(), t -> new ArrayList<>()).add(closed);
    }
    for (List<Run> list : byTask.values()) {
      list.sort(Comparator.comparingLong(Run::start));
      for (int i = 1; i < list.size(); i++) {
        Run before = list.get(i - 1);
        Run after = list.get(i);
        if (after.start() < before.end()) {
          return Optional.of("task " + after.task() + ": " + after + " started before " + before
              + " ended (" + (before.end() == Long.MAX_VALUE ? "it never did"
                  : (before.end() - after.start()) / 1_000_000 + " ms of overlap") + ")");
        }
      }
    }
    return Optional.empty();
  }
}

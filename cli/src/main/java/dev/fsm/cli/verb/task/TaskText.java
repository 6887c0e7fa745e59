package dev.fsm.cli.verb.task;

import dev.fsm.cli.terminal.Style;
import dev.fsm.model.Durations;
import dev.fsm.operations.Operations;
import dev.fsm.store.MachineVersion;
import dev.fsm.task.Pausing;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.yaml.MachineReader;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** How the task verbs write times, durations, statuses and counts for people. */
final class TaskText {

  private static final DateTimeFormatter LOCAL =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneId.systemDefault());

  private TaskText() {}

  /** A time in the local zone to the second, or "-". */
  static String time(Instant t) {
    return t == null ? "-" : LOCAL.format(t);
  }

  /** A duration as a machine file writes it ({@code 1m30s}, {@code 250ms}), or "-". */
  static String duration(Duration d) {
    return d == null ? "-" : Durations.format(d);
  }

  /** What a pending {@code pause --after-step} means, who asked it, when and why. */
  static String pausing(Pausing p) {
    return "after the running step (pause --after-step by " + p.by() + " at "
        + time(p.at()) + (p.reason().isEmpty() ? "" : ": " + p.reason())
        + "); send `run` to cancel, `pause` to stop the action now";
  }

  /**
   * True for a task in fault with no due time: parked (an interrupted at-most-once attempt, a
   * state its version lost, an event with no edge) until an operator decides.
   */
  static boolean isParked(Task task) {
    return task.status() == TaskStatus.FAULT && task.due() == null;
  }

  /** What an operator can do with a parked task. */
  static String parked(Task task, boolean stateInVersion) {
    String fail = "`fsm send " + task.id() + " error` to fail it";
    String redrive = "`fsm send " + task.id() + " redrive --to STATE`";
    if (!stateInVersion) {
      // Trying again would find the same missing state and park it again.
      return "waiting for an operator: its state is not in its machine version, so " + fail
          + ", then " + redrive + " to run it from a state that is";
    }
    return "waiting for an operator: `fsm send " + task.id() + " sleep --until now` to try"
        + " again, or " + fail + " (then " + redrive + " to run it from a state)";
  }

  /** Whether the task's pinned machine version declares its state (true when unknown). */
  static boolean stateInVersion(Operations control, Task t) {
    for (MachineVersion v : control.versions(t.machine())) {
      if (v.version().equals(t.version())) {
        return MachineReader.read(Path.of(v.machine() + ".yaml"), v.definition()).machine()
            .map(m -> m.stateNames().contains(t.state())).orElse(true);
      }
    }
    return true;
  }

  /** A status word, coloured by how it stands: ended well, ended badly, or needs a look. */
  static String status(Style style, String word) {
    return switch (TaskStatus.parse(word.strip()).orElse(TaskStatus.RUNNABLE)) {
      case COMPLETED -> style.good(word);
      case FAILED, FAULT -> style.error(word);
      case KILLED, PAUSED -> style.warning(word);
      default -> word;
    };
  }

  /**
   * The time that matters in a list: when a scheduled task is due, else when it last changed
   * (its last attempt or the state it entered, whichever is later).
   */
  static String dueOrUpdated(Task t) {
    return time(dueOrUpdatedTime(t));
  }

  /** The same as an age from {@code now}: {@code in 5m} when due later, else {@code 2h ago}. */
  static String dueOrUpdated(Task t, Instant now) {
    Instant when = dueOrUpdatedTime(t);
    return when.isAfter(now) ? "in " + age(Duration.between(now, when))
        : age(Duration.between(when, now)) + " ago";
  }

  private static Instant dueOrUpdatedTime(Task t) {
    return t.due() != null ? t.due() : t.updated();
  }

  /**
   * A duration in its largest whole unit, as kubectl shows ages: {@code 5s}, {@code 5m}, {@code
   * 2h} (up to 47h, so "a day and a half" keeps its precision), {@code 3d}.
   */
  static String age(Duration d) {
    long seconds = Math.max(0, d.getSeconds());
    if (seconds < 60) {
      return seconds + "s";
    }
    if (seconds < 3600) {
      return seconds / 60 + "m";
    }
    if (seconds < 48 * 3600) {
      return seconds / 3600 + "h";
    }
    return seconds / 86400 + "d";
  }

  /** Counts as {@code 2 runnable, 5 completed}, or "none". */
  static String counts(Map<ShownStatus, Long> counts) {
    List<String> parts = new ArrayList<>();
    for (ShownStatus s : ShownStatus.values()) {
      long n = counts.getOrDefault(s, 0L);
      if (n > 0) {
        parts.add(n + " " + s.word());
      }
    }
    return parts.isEmpty() ? "none" : String.join(", ", parts);
  }

  /** A task's machine and version as {@code order v2 (3f2a9c1b0e4d)}. */
  static String version(Operations control, Task t) {
    for (MachineVersion v : control.versions(t.machine())) {
      if (v.version().equals(t.version())) {
        return t.machine() + " v" + v.number() + " (" + v.version() + ")";
      }
    }
    return t.machine() + " " + t.version();
  }

  /** "1 task" or "3 tasks". */
  static String tasks(long n) {
    return n + (n == 1 ? " task" : " tasks");
  }
}

package dev.fsm.render;

import dev.fsm.model.Action;
import dev.fsm.model.Behavior;
import dev.fsm.model.Durations;
import dev.fsm.model.State;
import dev.fsm.model.Timeout;
import dev.fsm.task.ShownStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The short lines written under a state's name, so a 50-state diagram stays readable. */
final class Captions {

  /** Longer lines are cut: a diagram box should not grow to fit a whole command line. */
  static final int MAX = 30;

  private Captions() {}

  /** What the state does, in at most two short lines. */
  static List<String> details(State state) {
    Behavior b = state.behavior();
    if (b instanceof Behavior.Run run) {
      return List.of(cut(action(run.action())), timeout(state.timeout()));
    } else if (b instanceof Behavior.Wait wait) {
      return List.of("wait " + Durations.format(wait.duration()));
    } else if (b instanceof Behavior.External) {
      return List.of("waits for a signal");
    }
    return List.of(((Behavior.Final) b).outcome().word());
  }

  /** Counts by status, two to a line: {@code 3 runnable, 1 fault}. */
  static List<String> counts(Map<ShownStatus, Long> counts) {
    List<String> lines = new ArrayList<>();
    List<String> parts = new ArrayList<>();
    counts.forEach((status, n) -> parts.add(n + " " + status.word()));
    for (int i = 0; i < parts.size(); i += 2) {
      lines.add(String.join(", ", parts.subList(i, Math.min(i + 2, parts.size()))));
    }
    return lines;
  }

  /** A task id short enough for a box: ids are sortable by time, so their tail differs. */
  static String taskId(String id) {
    return id.length() <= 14 ? id : "…" + id.substring(id.length() - 12);
  }

  static String cut(String text) {
    String oneLine = text.replaceAll("\\s+", " ").strip();
    return oneLine.length() <= MAX ? oneLine
        : oneLine.substring(0, MAX - 1).stripTrailing() + "…";
  }

  private static String action(Action action) {
    if (action instanceof Action.Program p) {
      // The folder adds length, not meaning: programs usually live in the machine's scripts/.
      List<String> shown = new ArrayList<>(p.argv());
      String program = shown.get(0);
      shown.set(0, program.substring(program.lastIndexOf('/') + 1));
      return String.join(" ", shown);
    } else if (action instanceof Action.JavaClass j) {
      return "java:" + j.className().substring(j.className().lastIndexOf('.') + 1);
    }
    return action.text();
  }

  private static String timeout(Timeout timeout) {
    if (timeout instanceof Timeout.Never) {
      return "no timeout, at most once";
    }
    return "timeout " + timeout.text();
  }
}

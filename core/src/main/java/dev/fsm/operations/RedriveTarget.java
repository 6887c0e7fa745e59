package dev.fsm.operations;

import dev.fsm.FsmException;
import dev.fsm.model.Machine;
import dev.fsm.model.State;
import dev.fsm.task.Task;
import dev.fsm.task.Transition;
import java.util.List;

/**
 * Where {@code redrive} puts a task back: the {@code --to} state, checked against the task's
 * machine version; else where it stopped, or, for a task that ended in a {@code final} state,
 * the state it came from there, read from its history.
 */
final class RedriveTarget {

  private RedriveTarget() {}

  /**
   * The state to redrive into.
   *
   * @param machine the task's machine, at the task's version
   * @param history the task's history, oldest first
   * @param to the {@code --to} state, or null
   * @throws FsmException when {@code to} is not a state the task can run in, or the history does
   *     not say where a task in a final state came from
   */
  static String of(Task task, Machine machine, List<Transition> history, String to) {
    String where = "task `" + task.id() + "`: ";
    if (to != null && to.isBlank()) {
      throw new FsmException(where + "--to is empty; give --to one of: "
          + String.join(", ", runnableStates(machine)));
    }
    if (to != null) {
      State state = machine.state(to).orElseThrow(() -> new FsmException(where + "`" + to
          + "` is not a state of machine `" + task.machine() + "` version " + task.version()
          + "; give --to one of: " + String.join(", ", runnableStates(machine))));
      if (state.isFinal()) {
        throw new FsmException(where + "`" + to + "` is a final state, where a task cannot run;"
            + " give --to one of: " + String.join(", ", runnableStates(machine)));
      }
      return to;
    }
    boolean endedInFinal = machine.state(task.state()).map(State::isFinal).orElse(false);
    if (!endedInFinal) {
      return task.state();
    }
    for (int i = history.size() - 1; i >= 0; i--) {
      Transition t = history.get(i);
      if (t.to().equals(task.state()) && !t.from().equals(task.state())) {
        return t.from();
      }
    }
    throw new FsmException(where + "it ended in the final state `" + task.state() + "` and its"
        + " history does not say where it came from; give --to one of: "
        + String.join(", ", runnableStates(machine)));
  }

  private static List<String> runnableStates(Machine machine) {
    return machine.stateNames().stream()
        .filter(n -> machine.state(n).map(s -> !s.isFinal()).orElse(false)).toList();
  }
}

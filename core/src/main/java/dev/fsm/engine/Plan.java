package dev.fsm.engine;

import dev.fsm.model.Action;
import dev.fsm.task.Change;
import dev.fsm.task.Task;
import java.util.Optional;

/** What a runner does with a task it claimed: run its state's action, or just record a change. */
public sealed interface Plan {

  /**
   * Run the action.
   *
   * @param task the task as the action sees it: this attempt's number, started now
   * @param action the state's action
   * @param startRecord for an at-most-once state, the start to record durably before running
   */
  record RunAction(Task task, Action action, Optional<Change> startRecord) implements Plan {}

  /** Nothing to run: record this change (a wait that is over, an error policy, a fault). */
  record Record(Change change) implements Plan {}
}

package dev.fsm.task;

import java.util.List;

/**
 * A task's snapshot with its whole history, oldest entry first: what an export carries of one
 * task and what {@link dev.fsm.store.Store#restore} writes back.
 */
public record TaskHistory(Task task, List<Transition> history) {

  public TaskHistory {
    history = List.copyOf(history);
  }
}

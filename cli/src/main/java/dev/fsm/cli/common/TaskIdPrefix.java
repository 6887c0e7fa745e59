package dev.fsm.cli.common;

import dev.fsm.FsmException;
import dev.fsm.operations.Operations;
import dev.fsm.store.TaskNotFoundException;
import dev.fsm.task.Task;
import java.util.List;

/** Finds the task a user means by its id or a unique start of it, as git does with commits. */
public final class TaskIdPrefix {

  private static final int SHOWN = 5;

  private TaskIdPrefix() {}

  /**
   * The task whose id is {@code typed}, else the one task whose id starts with it.
   *
   * @throws FsmException when no task matches, or several do
   */
  public static Task resolve(Operations control, String typed) {
    return control.get(typed).orElseGet(() -> {
      List<String> ids = typed.isEmpty() ? List.of()
          : control.idsStartingWith(typed, SHOWN + 1);
      if (ids.isEmpty()) {
        throw new TaskNotFoundException(typed);
      }
      if (ids.size() > 1) {
        String shown = String.join(", ", ids.subList(0, Math.min(SHOWN, ids.size())));
        throw new FsmException("task id `" + typed + "` is ambiguous: it starts " + shown
            + (ids.size() > SHOWN ? " and more" : "") + "; give more of the id");
      }
      return control.get(ids.get(0)).orElseThrow(() -> new TaskNotFoundException(typed));
    });
  }
}

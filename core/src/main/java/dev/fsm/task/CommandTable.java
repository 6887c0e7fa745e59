package dev.fsm.task;

import static dev.fsm.task.TaskStatus.COMPLETED;
import static dev.fsm.task.TaskStatus.FAILED;
import static dev.fsm.task.TaskStatus.FAULT;
import static dev.fsm.task.TaskStatus.KILLED;
import static dev.fsm.task.TaskStatus.PAUSED;
import static dev.fsm.task.TaskStatus.RUNNABLE;
import static dev.fsm.task.TaskStatus.SLEEPING;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How commands move statuses: the SPEC's table, read from each {@link Command}'s rules. A pair
 * that is not in the table is refused and the task is left as it was.
 */
public final class CommandTable {

  /** The statuses in the order the SPEC's table lists them: the live ones, then the ended. */
  public static final List<TaskStatus> ROWS =
      List.of(RUNNABLE, SLEEPING, PAUSED, FAULT, FAILED, KILLED, COMPLETED);

  private CommandTable() {}

  /** The status a command moves a task to, or empty when the table refuses the pair. */
  public static Optional<TaskStatus> next(TaskStatus from, Command command) {
    return command.next(from);
  }

  /** The commands a task in this status accepts, in table order; none for {@code completed}. */
  public static List<Command> allowed(TaskStatus from) {
    List<Command> allowed = new ArrayList<>();
    for (Command c : Command.values()) {
      if (c.next(from).isPresent()) {
        allowed.add(c);
      }
    }
    return allowed;
  }

  /** Why a pair is refused, naming the status and what is allowed, for the user. */
  public static String refusal(TaskStatus from, Command command) {
    return refusal(from, command.word());
  }

  /** {@link #refusal(TaskStatus, Command)}, naming the command by the word the user typed. */
  public static String refusal(TaskStatus from, String typed) {
    return refusal(from, typed, from.word());
  }

  /**
   * {@link #refusal(TaskStatus, String)} for a task shown as {@code shown}: a runnable task
   * waiting for a signal is shown as waiting everywhere, and is runnable for this table.
   */
  public static String refusal(TaskStatus from, String typed, String shown) {
    String status = shown.equals(from.word()) ? from.word()
        : shown + " (" + from.word() + ", for commands)";
    List<String> words = new ArrayList<>();
    for (Command c : allowed(from)) {
      words.add(c.word());
    }
    if (words.isEmpty()) {
      return "`" + typed + "` is not allowed: the task is " + status
          + ", which is final; no command changes it";
    }
    String ended = from.isTerminal() ? ", which is final" : "";
    return "`" + typed + "` is not allowed while the task is " + status + ended
        + "; allowed now: " + String.join(", ", words);
  }
}

package dev.fsm.task;

import static dev.fsm.task.TaskStatus.COMPLETED;
import static dev.fsm.task.TaskStatus.FAILED;
import static dev.fsm.task.TaskStatus.FAULT;
import static dev.fsm.task.TaskStatus.KILLED;
import static dev.fsm.task.TaskStatus.PAUSED;
import static dev.fsm.task.TaskStatus.RUNNABLE;
import static dev.fsm.task.TaskStatus.SLEEPING;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How commands move statuses: the SPEC's table, as data, and the only place it lives. A pair
 * that is not in the table is refused and the task is left as it was.
 */
public final class CommandTable {

  private static final Map<TaskStatus, Map<Command, TaskStatus>> TABLE =
      new EnumMap<>(TaskStatus.class);

  static {
    // Columns in Command order:
    //        from       run       pause   sleep     kill    error   complete   checkpoint release
    row(RUNNABLE, RUNNABLE, PAUSED, SLEEPING, KILLED, FAULT, COMPLETED, RUNNABLE, RUNNABLE);
    row(SLEEPING, RUNNABLE, PAUSED, SLEEPING, KILLED, FAULT, null, SLEEPING, SLEEPING);
    row(PAUSED, RUNNABLE, PAUSED, SLEEPING, KILLED, null, null, PAUSED, PAUSED);
    row(FAULT, null, null, SLEEPING, null, FAILED, null, null, null);
  }

  private CommandTable() {}

  /** The status a command moves a task to, or empty when the table refuses the pair. */
  public static Optional<TaskStatus> next(TaskStatus from, Command command) {
    return Optional.ofNullable(TABLE.getOrDefault(from, Map.of()).get(command));
  }

  /** The commands a task in this status accepts, in table order; none for terminal statuses. */
  public static List<Command> allowed(TaskStatus from) {
    return new ArrayList<>(TABLE.getOrDefault(from, Map.of()).keySet());
  }

  /** Why a pair is refused, naming the status and what is allowed, for the user. */
  public static String refusal(TaskStatus from, Command command) {
    if (from.isTerminal()) {
      return "`" + command.word() + "` is not allowed: the task is " + from.word()
          + ", which is final; no command changes it";
    }
    List<String> words = new ArrayList<>();
    for (Command c : allowed(from)) {
      words.add(c.word());
    }
    return "`" + command.word() + "` is not allowed while the task is " + from.word()
        + "; allowed now: " + String.join(", ", words);
  }

  private static void row(TaskStatus from, TaskStatus... byCommand) {
    Map<Command, TaskStatus> row = new EnumMap<>(Command.class);
    Command[] commands = Command.values();
    if (byCommand.length != commands.length) {
      throw new IllegalStateException("row " + from + " has " + byCommand.length + " columns");
    }
    for (int i = 0; i < commands.length; i++) {
      if (byCommand[i] != null) {
        row.put(commands[i], byCommand[i]);
      }
    }
    TABLE.put(from, row);
  }
}

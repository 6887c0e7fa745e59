package dev.fsm.cli.verb.task;

import dev.fsm.cli.common.TaskIdPrefix;
import dev.fsm.operations.Operations;
import dev.fsm.task.Command;
import dev.fsm.task.Task;
import java.time.Instant;

/** A command sent to one task, with the task before and after; shared by both send routes. */
record SentCommand(Command command, Task before, Task after) {

  /**
   * Sends {@code command} to the task {@code typedId} names (its id or a unique start of it).
   *
   * @throws dev.fsm.FsmException when no task or several match, or the command is refused
   */
  static SentCommand send(Operations control, String typedId, Command command, Instant until,
      String reason, String to) {
    Task before = TaskIdPrefix.resolve(control, typedId);
    return new SentCommand(command, before,
        control.send(before.id(), command, until, reason, to));
  }

  /** The text report, e.g. {@code t1: pause sent; running -> paused}. */
  String line() {
    return after.id() + ": " + command.word() + " sent; " + (before.status() == after.status()
        ? "still " + after.status().word()
        : before.status().word() + " -> " + after.status().word());
  }
}

package dev.fsm.cli.verb.task;

import dev.fsm.cli.common.TaskIdPrefix;
import dev.fsm.operations.Operations;
import dev.fsm.operations.SendOptions;
import dev.fsm.task.Command;
import dev.fsm.task.Task;

/**
 * A command sent to one task, with the task before and after; shared by both send routes.
 *
 * @param word what the user sent, as they typed it (e.g. {@code resume}, {@code pause
 *     --after-step})
 */
record SentCommand(String word, Task before, Task after) {

  /**
   * Sends {@code command} to the task {@code typedId} names (its id or a unique start of it).
   *
   * @param typed the word the user typed for the command (its own word or an alias)
   * @throws dev.fsm.FsmException when no task or several match, or the command is refused
   */
  static SentCommand send(Operations control, String typedId, String typed, Command command,
      SendOptions options) {
    Task before = TaskIdPrefix.resolve(control, typedId);
    SendOptions named = typed.equals(command.word()) ? options : new SendOptions(
        options.until(), options.reason(), options.to(), options.afterStep(), typed);
    Task after = control.send(before.id(), command, named);
    return new SentCommand(options.afterStep() ? typed + " --after-step" : typed, before, after);
  }

  /**
   * The text report, e.g. {@code t1: pause sent; runnable -> paused}, or for a pause that waits
   * for the running step, {@code t1: pause --after-step sent; still runnable, pausing after the
   * running step}.
   */
  String line() {
    String head = after.id() + ": " + word + " sent; ";
    if (after.pausing() != null) {
      return head + "still " + after.status().word() + ", pausing after the running step";
    }
    return head + (before.status() == after.status()
        ? "still " + after.status().word()
        : before.status().word() + " -> " + after.status().word());
  }
}

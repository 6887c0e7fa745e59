package dev.fsm.cli.verb.task;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.fsm.cli.common.TaskIdPrefix;
import dev.fsm.engine.ShownStatuses;
import dev.fsm.operations.Operations;
import dev.fsm.operations.SendOptions;
import dev.fsm.task.Command;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import java.io.IOException;

/**
 * A command sent to one task, with the task before and after; shared by both send routes.
 *
 * @param word what the user sent, as they typed it (e.g. {@code resume}, {@code pause
 *     --after-step})
 * @param beforeShown the status the task showed before ({@code waiting} for a runnable task
 *     awaiting a signal), as ls shows it
 * @param afterShown the status it shows after
 */
record SentCommand(String word, Task before, Task after, ShownStatus beforeShown,
    ShownStatus afterShown) {

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
    ShownStatuses shown = new ShownStatuses(control::versions);
    return new SentCommand(options.afterStep() ? typed + " --after-step" : typed, before, after,
        shown.of(before), shown.of(after));
  }

  /** The task after the command, as JSON. */
  void json(JsonGenerator g) throws IOException {
    TaskJson.task(g, after, afterShown);
  }

  /**
   * The text report, e.g. {@code t1: pause sent; runnable -> paused}, or for a pause that waits
   * for the running step, {@code t1: pause --after-step sent; still runnable, pausing after the
   * running step}.
   */
  String line() {
    String head = after.id() + ": " + word + " sent; ";
    if (after.pausing() != null) {
      return head + "still " + afterShown.word() + ", pausing after the running step";
    }
    return head + (beforeShown == afterShown
        ? "still " + afterShown.word()
        : beforeShown.word() + " -> " + afterShown.word());
  }
}

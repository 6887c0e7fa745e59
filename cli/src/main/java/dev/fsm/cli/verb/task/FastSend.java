package dev.fsm.cli.verb.task;

import dev.fsm.access.StoreAccess;
import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.control.SocketControl;
import dev.fsm.operations.Operations;
import dev.fsm.operations.SendOptions;
import dev.fsm.store.StorePurpose;
import dev.fsm.task.Command;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * {@code fsm send ID COMMAND} without picocli: to a store a runner owns, without {@link
 * dev.fsm.control.Controls} or the embedded store either (the verb operators type while a
 * runner works, so its start-up counts), and to an embedded store no runner serves by opening
 * it as {@link Send} does. Whatever {@link Send} would reject, and a database store, is declined
 * before anything is sent, so the full verb handles it and stays the reference.
 */
public final class FastSend {

  private FastSend() {}

  /**
   * Sends the command and prints what {@link Send} prints, or returns empty having done and
   * printed nothing.
   *
   * @param words the verb's positional words, which must be an id and a command
   * @param until the {@code --until} value as typed, or null
   * @param reason the {@code --reason} value, or null
   * @throws RuntimeException what the runner's control threw, once the command went out
   */
  public static OptionalInt tryRun(GlobalOptions global, List<String> words, String until,
      String reason, PrintWriter out) {
    if (words.size() != 2) {
      return OptionalInt.empty();
    }
    Optional<Command> command = Command.parse(words.get(1));
    if (command.isEmpty() || command.get().needsUntil() != (until != null)) {
      return OptionalInt.empty();
    }
    Instant wake = null;
    StoreAccess.Located at;
    try {
      if (until != null) {
        wake = Times.parse(until, Clock.systemDefaultZone());
      }
      at = TaskAccess.locate(global, StorePurpose.WRITE, "fsm send", false);
    } catch (RuntimeException e) {
      // A bad time or store: the full verb words the error.
      return OptionalInt.empty();
    }
    if (!at.hasOwner()) {
      return OptionalInt.empty();
    }
    Optional<SocketControl> runner = SocketControl.connect(at.socketFolder());
    // With no runner serving the store, it is opened as the full verb opens it.
    try (Operations control = runner.isPresent() ? runner.get()
        : TaskAccess.openToWrite(global, "fsm send")) {
      SentCommand sent = SentCommand.send(control, words.get(0), words.get(1), command.get(),
          SendOptions.of(wake, reason));
      if (global.json()) {
        JsonDocument.print(out, sent::json);
      } else {
        out.println(sent.line());
      }
    }
    return OptionalInt.of(ExitCodes.OK);
  }
}

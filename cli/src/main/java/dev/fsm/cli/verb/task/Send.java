package dev.fsm.cli.verb.task;

import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.operations.BulkSendReport;
import dev.fsm.operations.Operations;
import dev.fsm.operations.SendOptions;
import dev.fsm.operations.TaskSelector;
import dev.fsm.task.Command;
import dev.fsm.task.ShownStatus;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fsm send}: an operator's command to one task, or to every task of a selection. */
@CommandLine.Command(
    name = "send",
    mixinStandardHelpOptions = true,
    header = "Send a command to a task, or to every task a selection matches.",
    description = {
      "fsm send ID COMMAND, or fsm send --machine M [--state S] [--status X] COMMAND.",
      "Commands: run (or resume), pause, sleep (needs --until), kill, error (takes --reason),"
          + " complete, checkpoint, release, redrive (takes --to). A command the task's status"
          + " does not allow is refused and the task is left as it was.",
      "redrive brings a failed or killed task back: runnable in the state where it stopped (for"
          + " one that ended in a final state, the state it came from), or in --to STATE, its"
          + " errors cleared and its history kept.",
      "pause --after-step lets a running action finish and record its step, then pauses the"
          + " task where the step led (a final state ends it there); meanwhile show marks it"
          + " pausing, and run cancels it. With no action running it pauses at once.",
      "Exits 1 when the command was refused (for any task of a selection)."
    },
    footer = {
      "fsm send 01JD8X3K pause --reason \"card provider down\"",
      "fsm send 01JD8X3K sleep --until 2h",
      "# every task of order in fault, back to where it failed",
      "fsm send --machine order --status fault redrive --dry-run"
    })
public final class Send implements Callable<Integer> {

  @Parameters(arity = "1..2", paramLabel = "[ID] COMMAND",
      description = "The task's id (or a unique start of it) and the command.")
  List<String> words;

  @Option(names = "--until", paramLabel = "TIME", converter = Times.Converter.class,
      description = "For sleep: when to wake, ISO-8601, a duration from now such as 10m, or"
          + " now.")
  Instant until;

  @Option(names = "--reason", paramLabel = "TEXT",
      description = "Why, recorded in the history (and the error, for `error`).")
  String reason;

  @Option(names = "--to", paramLabel = "STATE",
      description = "For redrive: the state to run in, instead of where the task stopped.")
  String to;

  @Option(names = "--after-step", description = "For pause: let a running action finish and"
      + " record its step first, instead of stopping it.")
  boolean afterStep;

  @Option(names = "--machine", paramLabel = "M", description = "Send to the tasks of machine M.")
  String machine;

  @Option(names = "--state", paramLabel = "S", description = "Only tasks in state S.")
  String state;

  @Option(names = "--status", paramLabel = "X", converter = Words.ShownStatusConverter.class,
      description = "Only tasks with status X (waiting among them); repeat for any of several.")
  List<ShownStatus> statuses = new ArrayList<>();

  @Option(names = "--dry-run", description = "With --machine: say what would change; change"
      + " nothing.")
  boolean dryRun;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    CommandLine cmd = spec.commandLine();
    boolean bulk = machine != null;
    if (!bulk && (state != null || !statuses.isEmpty() || dryRun)) {
      throw new ParameterException(cmd, "--state, --status and --dry-run select tasks of a"
          + " machine; add --machine M, or send to one task with fsm send ID COMMAND");
    }
    if (bulk ? words.size() != 1 : words.size() != 2) {
      throw new ParameterException(cmd, bulk
          ? "with --machine give only the command: fsm send --machine " + machine + " COMMAND"
          : "give a task id and a command: fsm send ID COMMAND (or select tasks with --machine)");
    }
    Command command = Words.command(cmd, words.get(words.size() - 1));
    if (command.needsUntil() && until == null) {
      throw new ParameterException(cmd, "`" + command.word() + "` needs --until TIME|DURATION,"
          + " e.g. --until 10m");
    }
    if (!command.needsUntil() && until != null) {
      throw new ParameterException(cmd, "--until is for " + only(Command::needsUntil));
    }
    if (!command.takesTo() && to != null) {
      throw new ParameterException(cmd, "--to is for " + only(Command::takesTo));
    }
    if (!command.takesAfterStep() && afterStep) {
      throw new ParameterException(cmd, "--after-step is for " + only(Command::takesAfterStep));
    }
    String typed = words.get(words.size() - 1);
    SendOptions options = new SendOptions(until, reason, to, afterStep,
        typed.equals(command.word()) ? null : typed);
    GlobalOptions global = GlobalOptions.of(spec);
    PrintWriter out = cmd.getOut();
    try (Operations control = TaskAccess.openToWrite(global, "fsm send")) {
      if (bulk) {
        return sendAll(control, command, options, global, out, cmd.getErr());
      }
      SentCommand sent = SentCommand.send(control, words.get(0), typed, command, options);
      if (global.json()) {
        JsonDocument.print(out, sent::json);
      } else {
        out.println(sent.line());
      }
    }
    return ExitCodes.OK;
  }

  /** The commands an option is for, as {@code `sleep` only}. */
  private static String only(Predicate<Command> takes) {
    List<String> words = Arrays.stream(Command.values()).filter(takes)
        .map(c -> "`" + c.word() + "`").toList();
    return String.join(", ", words) + " only";
  }

  private int sendAll(Operations control, Command command, SendOptions options,
      GlobalOptions global, PrintWriter out, PrintWriter err) {
    KnownMachine.require(control, machine);
    if (state != null) {
      KnownState.require(control, machine, state);
    }
    if (options.to() != null) {
      // Once, rather than the same refusal for every task.
      KnownState.require(control, machine, options.to());
    }
    BulkSendReport r = control.sendAll(new TaskSelector(machine, Optional.ofNullable(state),
        Set.copyOf(statuses)), command, options, dryRun);
    String sent = (options.typed() == null ? command.word() : options.typed())
        + (options.afterStep() ? " --after-step" : "");
    if (global.json()) {
      JsonDocument.print(out, g -> TaskJson.bulkSend(g, command.word(), r));
    } else {
      String changed = r.dryRun() ? "would change" : "changed";
      out.println(sent + (r.dryRun() ? " (dry run)" : "") + ": "
          + TaskText.tasks(r.matched()) + " matched, " + r.changed().size() + " " + changed
          + ", " + r.refused().size() + " refused");
      for (BulkSendReport.Refusal refusal : r.refused()) {
        out.println("  refused " + refusal.reason());
      }
    }
    if (!r.refused().isEmpty()) {
      err.println("fsm: " + sent + " was refused by " + TaskText.tasks(
          r.refused().size()) + (r.dryRun() ? " (dry run: nothing was changed)" : ""));
      return ExitCodes.FAILED;
    }
    return ExitCodes.OK;
  }
}

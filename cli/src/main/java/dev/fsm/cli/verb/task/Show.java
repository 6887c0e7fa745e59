package dev.fsm.cli.verb.task;

import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.cli.common.TaskIdPrefix;
import dev.fsm.cli.terminal.Style;
import dev.fsm.engine.ShownStatuses;
import dev.fsm.operations.Operations;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.Transition;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fsm show}: everything about one task, and its history. */
@Command(
    name = "show",
    mixinStandardHelpOptions = true,
    header = "Show a task: status, state, context, errors and history.",
    description = "ID may be the start of an id when only one task's id starts so.",
    footer = {
      "fsm show 01JD8X3K",
      "fsm show 01JD --output json"
    })
public final class Show implements Callable<Integer> {

  @Parameters(paramLabel = "ID", description = "The task's id, or a unique start of it.")
  String id;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return show(id, GlobalOptions.of(spec), spec.commandLine().getOut());
  }

  /** Shows the task {@code id} names; also the fast path's way in, which has no picocli. */
  public static int show(String id, GlobalOptions global, PrintWriter out) {
    Task task;
    List<Transition> history;
    String version;
    ShownStatus shown;
    boolean stateKnown;
    try (Operations control = TaskAccess.open(global, "fsm show", false)) {
      task = TaskIdPrefix.resolve(control, id);
      history = control.history(task.id());
      version = TaskText.version(control, task);
      shown = new ShownStatuses(control::versions).of(task);
      stateKnown = !TaskText.isParked(task) || TaskText.stateInVersion(control, task);
    }
    if (global.json()) {
      JsonDocument.print(out, g -> TaskJson.taskWithHistory(g, task, shown, history));
      return ExitCodes.OK;
    }
    Style style = Style.forTerminal(global.colorAllowed());
    field(out, style, "task", task.id());
    field(out, style, "status", TaskText.status(style, shown.word())
        + (task.pausing() != null ? ", pausing" : TaskText.isParked(task) ? " (parked)" : ""));
    if (task.pausing() != null) {
      field(out, style, "pausing", TaskText.pausing(task.pausing()));
    }
    if (TaskText.isParked(task)) {
      field(out, style, "parked", TaskText.parked(task, stateKnown));
    }
    field(out, style, "state", task.state());
    field(out, style, "machine", version);
    field(out, style, "attempt", String.valueOf(task.attempt()));
    field(out, style, "created", TaskText.time(task.created()));
    field(out, style, "entered", TaskText.time(task.stateEntered()) + " (this state)");
    field(out, style, "last try", TaskText.time(task.lastAttempt()));
    field(out, style, "due", task.due() == null ? "- (not scheduled)"
        : TaskText.time(task.due()));
    field(out, style, "lease", task.lease() == null ? "none" : task.lease().owner() + " until "
        + TaskText.time(task.lease().until())
        + (task.lease().heldAt(Instant.now()) ? "" : " (expired)"));
    out.println(style.bold("context"));
    String pretty = JsonDocument.indented(g -> JsonDocument.copy(g, task.context()));
    pretty.lines().forEach(line -> out.println("  " + line));
    out.println(style.bold("errors") + (task.errors().isEmpty() ? "  none" : ""));
    for (TaskError e : task.errors()) {
      out.println("  " + TaskText.time(e.time()) + "  " + e.message());
    }
    out.println(style.bold("history") + (history.isEmpty() ? "  none" : ""));
    if (history.isEmpty()) {
      return ExitCodes.OK;
    }
    OptionalInt width = global.columns();
    HistoryTable.of(history).lines(width.isPresent() ? OptionalInt.of(width.getAsInt() - 2)
        : width).forEach(line -> out.println("  " + line));
    return ExitCodes.OK;
  }

  private static void field(PrintWriter out, Style style, String name, String value) {
    out.println(style.bold(String.format("%-9s", name)) + " " + value);
  }
}

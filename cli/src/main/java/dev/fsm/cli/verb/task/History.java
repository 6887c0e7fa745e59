package dev.fsm.cli.verb.task;

import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.cli.common.TaskIdPrefix;
import dev.fsm.operations.Operations;
import dev.fsm.task.Task;
import dev.fsm.task.Transition;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fsm history}: every transition and command of a task, oldest first. */
@Command(
    name = "history",
    mixinStandardHelpOptions = true,
    header = "Show a task's history, oldest first.",
    description = "Each move between states and each operator's command: when, from, event,"
        + " to, how long the attempt ran, the attempt number, who caused it and why.",
    footer = {
      "fsm history 01JD8X3K",
      "fsm history 01JD8X3K --output json"
    })
public final class History implements Callable<Integer> {

  @Parameters(paramLabel = "ID", description = "The task's id, or a unique start of it.")
  String id;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return history(id, GlobalOptions.of(spec), spec.commandLine().getOut());
  }

  /** Prints the history of the task {@code id} names (or starts); the exit status. */
  public static int history(String id, GlobalOptions global, PrintWriter out) {
    List<Transition> history;
    try (Operations control = TaskAccess.open(global, "fsm history", false)) {
      Task task = TaskIdPrefix.resolve(control, id);
      history = control.history(task.id());
    }
    if (global.json()) {
      JsonDocument.print(out, g -> TaskJson.history(g, history));
    } else {
      HistoryTable.of(history).print(out, global.columns());
    }
    return ExitCodes.OK;
  }
}

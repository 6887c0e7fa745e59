package dev.fsm.cli.verb.task;

import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.cli.terminal.Style;
import dev.fsm.cli.terminal.Table;
import dev.fsm.operations.Operations;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code fsm ls}: a page of tasks, optionally of one machine, state or status. */
@Command(
    name = "ls",
    mixinStandardHelpOptions = true,
    header = "List tasks, oldest first.",
    description = "DUE/UPDATED is when a scheduled task is due, else when it last changed.")
public final class Ls implements Callable<Integer> {

  @Option(names = "--machine", paramLabel = "M", description = "Only tasks of machine M.")
  String machine;

  @Option(names = "--state", paramLabel = "S", description = "Only tasks in state S.")
  String state;

  @Option(names = "--status", paramLabel = "X", converter = Words.StatusConverter.class,
      description = "Only tasks with status X (runnable, sleeping, paused, fault, completed,"
          + " failed, killed).")
  TaskStatus status;

  @Option(names = "--limit", paramLabel = "N", defaultValue = "50",
      description = "Show at most N tasks (default: ${DEFAULT-VALUE}).")
  int limit;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (limit < 1) {
      throw new ParameterException(spec.commandLine(), "--limit must be at least 1");
    }
    GlobalOptions global = GlobalOptions.of(spec);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    List<Task> tasks;
    try (Operations control = TaskAccess.open(global, "fsm ls", false)) {
      if (machine != null) {
        KnownMachine.require(control, machine);
      }
      // One more than asked for, to know whether to say that more exist.
      tasks = control.list(new TaskQuery(Optional.ofNullable(machine),
          Optional.ofNullable(state), Optional.ofNullable(status), Optional.empty(),
          limit == Integer.MAX_VALUE ? limit : limit + 1));
    }
    boolean more = tasks.size() > limit;
    List<Task> shown = more ? tasks.subList(0, limit) : tasks;
    if (global.json()) {
      JsonDocument.print(out, g -> TaskJson.tasks(g, shown));
    } else if (shown.isEmpty()) {
      err.println("no tasks" + (machine != null || state != null || status != null
          ? " match" : " yet; start one with `fsm start MACHINE`"));
    } else {
      Style style = Style.forTerminal(global.colorAllowed());
      Table table = new Table("ID", "MACHINE", "STATE", "STATUS", "ATTEMPT", "DUE/UPDATED")
          .paint(3, word -> TaskText.status(style, word));
      for (Task t : shown) {
        table.add(t.id(), t.machine(), t.state(), t.status().word(), t.attempt(),
            TaskText.dueOrUpdated(t));
      }
      table.print(out, global.columns());
    }
    if (more) {
      err.println("showing the first " + TaskText.tasks(limit) + "; more match. Narrow with"
          + " --machine, --state or --status, or raise --limit");
    }
    return ExitCodes.OK;
  }
}

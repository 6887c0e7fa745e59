package dev.fsm.cli.verb.task;

import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.MachineFiles;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.cli.terminal.Style;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.Operations;
import dev.fsm.task.Task;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fsm start}: creates tasks of a machine, one or a file of them. */
@Command(
    name = "start",
    mixinStandardHelpOptions = true,
    header = "Start a task of a machine, or many from a JSON-lines file.",
    description = {
      "MACHINE is a machine's name (its file is found in the machines folder) or the path of a"
          + " machine file; the file is validated and registered as a version first.",
      "Prints the new task ids, one a line (or the tasks, with --output json)."
    })
public final class Start implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "MACHINE", description = "Machine name or file.")
  String machine;

  @Option(names = "--id", paramLabel = "ID",
      description = "The task's id (default: generated, sortable by creation time).")
  String id;

  @Option(names = "--context", paramLabel = "JSON|@FILE",
      description = "The task's context: a JSON object, or @FILE to read one from a file.")
  String context;

  @Option(names = "--at", paramLabel = "TIME", converter = Times.Converter.class,
      description = "When it may first run: ISO-8601, or a duration from now such as 10m.")
  Instant at;

  @Option(names = "--from", paramLabel = "FILE.jsonl",
      description = "Start many: one JSON object a line, {\"id\", \"context\", \"at\"}, each"
          + " optional.")
  Path from;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (from != null && (id != null || context != null || at != null)) {
      throw new ParameterException(spec.commandLine(), "--from takes each task's id, context"
          + " and at from its lines; leave out --id, --context and --at");
    }
    GlobalOptions global = GlobalOptions.of(spec);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    MachineSource source = MachineFiles.source(machine, global.machines(), err,
        Style.forTerminal(global.colorAllowed()));
    if (from != null) {
      return startFromFile(source, global, out, err);
    }
    NewTask task = new NewTask(id, ContextArgument.read(context), at);
    try (Operations control = TaskAccess.open(global, "fsm start", true)) {
      Task started = control.start(source, List.of(task)).get(0);
      if (global.json()) {
        JsonDocument.print(out, g -> TaskJson.task(g, started));
      } else {
        out.println(started.id());
      }
      err.println("started task " + started.id() + " of " + TaskText.version(control, started)
          + " in state " + started.state() + ", " + started.status().word());
    }
    return ExitCodes.OK;
  }

  private int startFromFile(MachineSource source, GlobalOptions global, PrintWriter out,
      PrintWriter err) {
    StartFromFile file = new StartFromFile(from, Clock.systemDefaultZone());
    long total = file.check(err);
    List<Task> json = new ArrayList<>();
    long[] started = {0};
    try (Operations control = TaskAccess.open(global, "fsm start", true)) {
      file.start(control, source, total, err, tasks -> {
        for (Task t : tasks) {
          if (global.json()) {
            json.add(t);
          } else {
            out.println(t.id());
          }
        }
        out.flush();
        started[0] += tasks.size();
      });
    } catch (RuntimeException e) {
      if (global.json() && started[0] > 0) {
        // Still one document when a chunk failed: the tasks that were started.
        JsonDocument.print(out, g -> TaskJson.tasks(g, json));
      }
      throw e;
    }
    if (global.json()) {
      JsonDocument.print(out, g -> TaskJson.tasks(g, json));
    }
    err.println("started " + TaskText.tasks(started[0]) + " of " + source.name() + " from "
        + from);
    return ExitCodes.OK;
  }
}

package dev.fsm.cli.verb.task;

import dev.fsm.UsageException;
import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.MachineFiles;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.cli.terminal.Style;
import dev.fsm.cli.terminal.Tty;
import dev.fsm.engine.ShownStatuses;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.Operations;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import dev.fsm.task.TaskIdRule;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
      "Prints the new task id (or the task, with --output json).",
      "With --from, on a terminal, it shows progress and a summary rather than every id; the"
          + " ids are printed, one a line, with --print-ids or when output is not a terminal."
    },
    footer = {
      "fsm start order --context '{\"amount\": 49.90}'",
      "fsm start order --id order-1001 --at 10m --context @order.json",
      "# many: one JSON object a line",
      "fsm start order --from orders.jsonl"
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
          + " optional; - reads stdin.")
  Path from;

  @Option(names = "--print-ids", description = "With --from: print every new task's id, one a"
      + " line, on a terminal too.")
  boolean printIds;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (from != null && (id != null || context != null || at != null)) {
      throw new ParameterException(spec.commandLine(), "--from takes each task's id, context"
          + " and at from its lines; leave out --id, --context and --at");
    }
    if (from == null && printIds) {
      throw new ParameterException(spec.commandLine(), "--print-ids goes with --from; a single"
          + " start always prints its task's id");
    }
    GlobalOptions global = GlobalOptions.of(spec);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    if (from != null) {
      return startFromFile(MachineFiles.source(machine, global.machines(), err,
          Style.forTerminal(global.colorAllowed())), global, out, err);
    }
    return startOne(machine, id, context, at, global, out, err);
  }

  /**
   * Starts one task: {@code fsm start MACHINE [--id ID] [--context JSON|@FILE] [--at TIME]},
   * each option null when not given; the fast path runs it without picocli too.
   */
  public static int startOne(String machine, String id, String context, Instant at,
      GlobalOptions global, PrintWriter out, PrintWriter err) {
    if (id != null && !TaskIdRule.allows(id)) {
      throw new UsageException("--id `" + TaskIdRule.shown(id) + "` is not allowed: "
          + TaskIdRule.WORDS);
    }
    MachineSource source = MachineFiles.source(machine, global.machines(), err,
        Style.forTerminal(global.colorAllowed()));
    NewTask task = new NewTask(id, ContextArgument.read(context), at);
    try (Operations control = TaskAccess.open(global, "fsm start", true)) {
      Task started = control.start(source, List.of(task)).get(0);
      ShownStatus shown = new ShownStatuses(control::versions).of(started);
      if (global.json()) {
        JsonDocument.print(out, g -> TaskJson.task(g, started, shown));
      } else {
        out.println(started.id());
      }
      err.println("started task " + started.id() + " of " + TaskText.version(control, started)
          + " in state " + started.state() + ", " + shown.word());
    }
    return ExitCodes.OK;
  }

  private int startFromFile(MachineSource source, GlobalOptions global, PrintWriter out,
      PrintWriter err) {
    long began = System.nanoTime();
    try (StartFromFile file = StartFromFile.open(from, Clock.systemDefaultZone(), System.in)) {
      return startFromFile(file, source, global, out, err, began);
    }
  }

  private int startFromFile(StartFromFile file, MachineSource source, GlobalOptions global,
      PrintWriter out, PrintWriter err, long began) {
    long total = file.check(err);
    List<Task> json = new ArrayList<>();
    // Read while the store is open, for the JSON printed after it closes.
    Map<Task, ShownStatus> shown = new HashMap<>();
    long[] started = {0};
    boolean terminal = Tty.stdout();
    boolean ids = !global.json() && (printIds || !terminal);
    try (Operations control = TaskAccess.open(global, "fsm start", true)) {
      ShownStatuses statuses = new ShownStatuses(control::versions);
      file.start(control, source, total, err, ids, tasks -> {
        for (Task t : tasks) {
          if (global.json()) {
            json.add(t);
            shown.put(t, statuses.of(t));
          } else if (ids) {
            out.println(t.id());
          }
        }
        out.flush();
        started[0] += tasks.size();
      });
    } catch (RuntimeException e) {
      if (global.json() && started[0] > 0) {
        // Still one document when a chunk failed: the tasks that were started.
        JsonDocument.print(out, g -> TaskJson.tasks(g, json, shown::get));
      }
      throw e;
    }
    if (global.json()) {
      JsonDocument.print(out, g -> TaskJson.tasks(g, json, shown::get));
    }
    String summary = "started " + TaskText.tasks(started[0]) + " of " + source.name()
        + " from " + file.name();
    if (terminal) {
      // People read this one: thousands separators and how long it took.
      summary = String.format(Locale.ROOT, "started %,d %s of %s from %s in %.1f s",
          started[0], started[0] == 1 ? "task" : "tasks", source.name(), file.name(),
          (System.nanoTime() - began) / 1e9);
    }
    err.println(summary);
    return ExitCodes.OK;
  }
}

package dev.fsm.cli.verb.task;

import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.cli.common.TaskIdPrefix;
import dev.fsm.engine.ShownStatuses;
import dev.fsm.operations.Operations;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fsm signal}: fires an event on a task waiting in an externally progressed state. */
@Command(
    name = "signal",
    mixinStandardHelpOptions = true,
    header = "Fire an event on a task waiting for one.",
    description = {
      "The task must be runnable in a state with no `run` or `wait`, and the state must have an"
          + " edge for the event; anything else is refused (exit 1).",
      "--context is merged shallowly into the task's context."
    },
    footer = {
      "fsm signal 01JD8X3K signed",
      "fsm signal 01JD8X3K approve --context '{\"by\": \"ada\"}'"
    })
public final class Signal implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "ID", description = "The task's id, or a unique start.")
  String id;

  @Parameters(index = "1", paramLabel = "EVENT", description = "The event to fire.")
  String event;

  @Option(names = "--context", paramLabel = "JSON|@FILE",
      description = "A JSON object (or @FILE of one) merged into the task's context.")
  String context;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    return signal(id, event, context, GlobalOptions.of(spec), spec.commandLine().getOut());
  }

  /**
   * Fires {@code event} on the task {@code id} names (or starts), merging {@code context} (JSON,
   * {@code @FILE} or null) into its context, and prints where it went; the exit status.
   */
  public static int signal(String id, String event, String context, GlobalOptions global,
      PrintWriter out) {
    String patch = ContextArgument.read(context);
    try (Operations control = TaskAccess.openToWrite(global, "fsm signal")) {
      Task before = TaskIdPrefix.resolve(control, id);
      Task after = control.signal(before.id(), event, patch);
      // A signal may lead to another state that waits for one: say so, as ls would.
      ShownStatus shown = new ShownStatuses(control::versions).of(after);
      if (global.json()) {
        JsonDocument.print(out, g -> TaskJson.task(g, after, shown));
      } else {
        out.println(after.id() + ": " + before.state() + " --" + event + "--> " + after.state()
            + ", " + shown.word());
      }
    }
    return ExitCodes.OK;
  }
}

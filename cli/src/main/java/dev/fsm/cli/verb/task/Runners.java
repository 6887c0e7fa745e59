package dev.fsm.cli.verb.task;

import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.cli.terminal.Style;
import dev.fsm.cli.terminal.Table;
import dev.fsm.operations.Operations;
import dev.fsm.operations.RunnerReport;
import dev.fsm.store.RunnerRecord;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code fsm runners}: the runners serving the store now and those seen in the last hour. */
@Command(
    name = "runners",
    mixinStandardHelpOptions = true,
    header = "List runners: id, host, pid, workers, started, seen, held, rate, status.",
    description = {
      "Every `fsm run` serving the store writes its record every 2 s: the tasks it holds and"
          + " its transitions per second (RATE) over the last 2 s. STATUS is `running` when it"
          + " was seen within 6 s, `stopped` after a clean exit, and `gone` when it stopped"
          + " writing without exiting cleanly: killed, hung, or cut off from the store (its"
          + " tasks are claimed again when their leases end). Runners seen in the last hour"
          + " are listed; the last line counts those serving the store now.",
      },
    footer = {
      "fsm runners",
      "fsm runners --store postgresql://fsm@db/fsm --output json"
    })
public final class Runners implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    GlobalOptions global = GlobalOptions.of(spec);
    PrintWriter out = spec.commandLine().getOut();
    RunnerReport report;
    try (Operations control = TaskAccess.open(global, "fsm runners", false)) {
      report = control.runners();
    }
    if (global.json()) {
      JsonDocument.print(out, g -> TaskJson.runners(g, report));
      return ExitCodes.OK;
    }
    if (!report.runners().isEmpty()) {
      Style style = Style.forTerminal(global.colorAllowed());
      boolean someMachines = report.runners().stream().anyMatch(r -> !r.machines().isEmpty());
      Table table = someMachines
          ? new Table("ID", "HOST", "PID", "WORKERS", "STARTED", "SEEN", "HELD", "RATE",
              "STATUS", "MACHINES")
          : new Table("ID", "HOST", "PID", "WORKERS", "STARTED", "SEEN", "HELD", "RATE",
              "STATUS");
      table.paint(8, word -> paint(style, word));
      for (RunnerRecord r : report.runners()) {
        String status = report.status(r).word();
        // A gone runner's last figures are no longer true: its leases end and others take over.
        boolean gone = status.equals("gone");
        Object held = gone ? "-" : r.held();
        String rate = gone ? "-" : RunnerText.rate(r.rate());
        if (someMachines) {
          table.add(r.id(), r.host(), r.pid(), r.workers(), TaskText.time(r.started()),
              RunnerText.ago(report, r), held, rate, status, RunnerText.machines(r));
        } else {
          table.add(r.id(), r.host(), r.pid(), r.workers(), TaskText.time(r.started()),
              RunnerText.ago(report, r), held, rate, status);
        }
      }
      table.print(out, global.columns());
    }
    out.println(RunnerText.summary(report));
    return ExitCodes.OK;
  }

  private static String paint(Style style, String word) {
    return switch (word.strip()) {
      case "running" -> style.good(word);
      case "gone" -> style.error(word);
      default -> word;
    };
  }
}

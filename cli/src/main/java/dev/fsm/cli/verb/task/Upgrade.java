package dev.fsm.cli.verb.task;

import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.MachineFiles;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.cli.terminal.Style;
import dev.fsm.operations.MachineSource;
import dev.fsm.operations.Operations;
import dev.fsm.operations.UpgradeReport;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.StorePurpose;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fsm upgrade}: registers a machine's file as the newest version, applies its strategy. */
@Command(
    name = "upgrade",
    mixinStandardHelpOptions = true,
    header = "Register a machine's file as the newest version and apply its `upgrade:` to"
        + " unfinished tasks of older versions.",
    description = {
      "MACHINE is a machine's name (its file is found in the machines folder) or the path of a"
          + " machine file; it is validated first. The file's `upgrade:` says what happens to"
          + " every unfinished task of an older version: `continue` (the default) keeps their"
          + " version; `upgrade` moves them to the new one (a task whose attempt is running"
          + " moves once the old version routed its outcome; one whose state the new version"
          + " lacks goes to fault, parked); `abort` kills them.",
      "Running it again with the same file applies the strategy to whatever is left."
    },
    footer = {
      "fsm upgrade order --dry-run",
      "fsm upgrade machines/order.yaml"
    })
public final class Upgrade implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "MACHINE", description = "Machine name or file.")
  String machine;

  @Option(names = "--dry-run",
      description = "Print what would happen per older version; change nothing, not even the"
          + " registration.")
  boolean dryRun;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    GlobalOptions global = GlobalOptions.of(spec);
    PrintWriter out = spec.commandLine().getOut();
    MachineSource source = MachineFiles.source(machine, global.machines(),
        spec.commandLine().getErr(), Style.forTerminal(global.colorAllowed()));
    UpgradeReport report;
    if (dryRun && !TaskAccess.locate(global, StorePurpose.READ, "fsm upgrade", true).exists()) {
      // No store: nothing is registered yet, and a dry run must not create one.
      MachineVersion first = MachineVersion.next(source.name(), source.text(),
          Instant.now(), List.of());
      report = new UpgradeReport(source.name(), first.number(), first.version(), true,
          UpgradeText.strategyOf(source), List.of(), true);
    } else {
      try (Operations control = dryRun ? TaskAccess.open(global, "fsm upgrade", false)
          : TaskAccess.open(global, "fsm upgrade", true)) {
        report = control.upgrade(source, dryRun);
      }
    }
    if (global.json()) {
      JsonDocument.print(out, g -> UpgradeText.json(g, report));
    } else {
      UpgradeText.print(out, report);
    }
    return ExitCodes.OK;
  }
}

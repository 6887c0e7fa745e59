package dev.fsm.cli.verb.store;

import dev.fsm.access.StoreAccess;
import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.Json;
import dev.fsm.store.StoreBusyException;
import dev.fsm.store.StorePurpose;
import dev.fsm.store.embedded.EmbeddedStoreOptions;
import dev.fsm.store.embedded.repair.RepairReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code fsm store repair}: salvages a damaged embedded store and reports what it lost. */
@Command(
    name = "repair",
    mixinStandardHelpOptions = true,
    header = "Salvage a damaged embedded store, keeping every record it can prove.",
    description = {
      "For a store that fsm refuses to open because its journal or snapshot is damaged. Reads"
          + " every sound record of the journal, before and after the damage, and of the"
          + " snapshot; uses the index a clean close left when it covers what the journal lost;"
          + " writes the state they prove as a new snapshot and journal, rebuilds the index, and"
          + " prints exactly which journal records, tasks and history entries it could not"
          + " recover.",
      "The damaged originals are moved into damaged-<time>/ in the store folder, never"
          + " deleted. A sound store is left as it is. Run it again after an interruption: it"
          + " finishes or restarts the repair.",
      "Exits 0 once the store is repaired or found sound, whatever was lost (the report says),"
          + " 1 when it cannot repair the store."
    },
    footer = {
      "fsm store repair",
      "fsm store check || fsm store repair"
    })
public final class Repair implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    GlobalOptions global = GlobalOptions.of(spec);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    StoreAccess.Located at = StoreFolder.find(global, "repair");
    RepairReport report;
    try {
      report = StoreFolder.embedded(at, "repair").repair(at.location(),
          EmbeddedStoreOptions.defaults().progress(StoreFolder.progress(err, "rebuilding index")),
          Instant.now());
    } catch (StoreBusyException e) {
      throw StoreAccess.busy(at, StorePurpose.CHECK, "fsm store repair", e);
    }
    if (global.json()) {
      Json.print(out, Reports.repair(report));
    } else {
      report.lines().forEach(out::println);
    }
    if (!report.sound() && !report.nothingLost()) {
      err.println("fsm: store " + at.location().text() + " is repaired and opens again, but it"
          + " lost what the report above lists; the damaged originals are in "
          + report.damagedFolder().map(Path::toString).orElse("the store folder"));
    }
    return ExitCodes.OK;
  }
}

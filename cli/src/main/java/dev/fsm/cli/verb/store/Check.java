package dev.fsm.cli.verb.store;

import dev.fsm.access.StoreAccess;
import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.Json;
import dev.fsm.store.StoreHealth;
import dev.fsm.store.StorePurpose;
import dev.fsm.store.embedded.EmbeddedStore;
import dev.fsm.store.embedded.StoreCheck;
import dev.fsm.store.embedded.check.StoreCheckReport.Difference;
import dev.fsm.store.embedded.check.StoreCheckReport;
import dev.fsm.store.embedded.recovery.OpenReport;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code fsm store check}: verifies an embedded store's index against its journal, or reports a
 * database store's schema version and health.
 */
@Command(
    name = "check",
    mixinStandardHelpOptions = true,
    header = "Verify a store: an embedded store's index, a PostgreSQL store's health.",
    description = {
      "Embedded store: opens it (rebuilding an index that was not closed cleanly), rebuilds a"
          + " second index from the journal beside it and compares the two entry by entry."
          + " Exits 0 when they match, 1 when they differ or the journal cannot be read to its"
          + " end.",
      "PostgreSQL store: reports the schema version, the server, tasks and history rows, dead"
          + " rows awaiting vacuum and the oldest open transaction. Exits 0 when healthy, 1 with"
          + " one line per problem saying what to do."
    },
    footer = {
      "fsm store check",
      "fsm store check --store postgresql://fsm@db1/fsm --output json"
    })
public final class Check implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    GlobalOptions global = GlobalOptions.of(spec);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    StoreAccess.Located at = StoreAccess.standard().locate(global.store(), StorePurpose.CHECK,
        "fsm store check", false);
    Optional<StoreHealth> health = at.kind().health(at.location());
    if (health.isPresent()) {
      return HealthText.print(health.get(), global.json(), out, err);
    }
    EmbeddedStore opened = StoreFolder.open(global, "check",
        options -> options.progress(StoreFolder.progress(err, "rebuilding index")));
    OpenReport open = opened.openReport();
    err.println(open.summary());
    StoreCheckReport report;
    try {
      report = StoreCheck.run(opened, StoreCheck.defaultLimit(opened),
          StoreFolder.progress(err, "checking index"));
    } catch (StoreCheck.Stuck e) {
      // A thread stuck in the index holds the store's lock, so closing would wait for ever;
      // the process exits instead and the OS releases the folder.
      throw e;
    } catch (RuntimeException | Error e) {
      opened.close();
      throw e;
    }
    opened.close();
    if (global.json()) {
      Json.print(out, Reports.check(report, open));
    } else {
      printText(report, out);
    }
    if (report.matches()) {
      return ExitCodes.OK;
    }
    err.println(report.journalProblem().isPresent()
        ? "fsm: the journal or snapshot of store " + report.folder() + " cannot be read to its"
            + " end; the message above names the file and offset. Copy the folder somewhere safe"
            + " before anything else."
        : "fsm: the index of store " + report.folder() + " does not match its journal; run"
            + " `fsm store rebuild` to build it again from the journal");
    return ExitCodes.FAILED;
  }

  private static void printText(StoreCheckReport r, PrintWriter out) {
    if (r.journalProblem().isPresent()) {
      // Nothing was compared: counts of zero would read as an empty store.
      out.println(String.format(Locale.ROOT, "store %s: not compared, as its journal and snapshot"
          + " could not be read to their end (%d ms)", r.folder(), r.millis()));
      out.println("journal: " + r.journalProblem().get());
      return;
    }
    out.println(String.format(Locale.ROOT, "store %s: %d tasks, %d journal records, %d entries in"
        + " %d collections compared in %d ms", r.folder(), r.tasks(), r.recordsReplayed(),
        r.entriesCompared(), r.collectionsCompared(), r.millis()));
    if (r.matches()) {
      out.println("index matches the journal");
    } else {
      out.println(String.format(Locale.ROOT, "index differs from the journal: %d difference%s",
          r.differencesFound(), r.differencesFound() == 1 ? "" : "s"));
      for (Difference d : r.differences()) {
        out.println("  " + d.summary());
      }
      long more = r.differencesFound() - r.differences().size();
      if (more > 0) {
        out.println("  ... and " + more + " more");
      }
    }
  }
}

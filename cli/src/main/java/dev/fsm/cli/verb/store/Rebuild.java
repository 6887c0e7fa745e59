package dev.fsm.cli.verb.store;

import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.Json;
import dev.fsm.store.embedded.EmbeddedStore;
import dev.fsm.store.embedded.recovery.OpenReport;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code fsm store rebuild}: builds the embedded store's index again from its journal. */
@Command(
    name = "rebuild",
    mixinStandardHelpOptions = true,
    header = "Build the embedded store's index again from its journal.",
    description = "Safe at any time the store is not in use, including after a crash: the"
        + " journal holds every acknowledged change and the index is only derived from it. A"
        + " damaged journal or snapshot is refused, as every open refuses it; `fsm store"
        + " repair` salvages such a store.",
    footer = {
      "fsm store rebuild",
      "fsm store rebuild --store /srv/fsm"
    })
public final class Rebuild implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    GlobalOptions global = GlobalOptions.of(spec);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    OpenReport report;
    try (EmbeddedStore opened = StoreFolder.open(global, "rebuild", options -> options
        .forceRebuild(true).progress(StoreFolder.progress(err, "rebuilding index")))) {
      report = opened.openReport();
    }
    if (global.json()) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("store", global.store());
      doc.putAll(Reports.open(report));
      Json.print(out, doc);
    } else {
      out.println(report.summary());
    }
    return ExitCodes.OK;
  }
}

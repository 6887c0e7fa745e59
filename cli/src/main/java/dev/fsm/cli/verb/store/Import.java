package dev.fsm.cli.verb.store;

import dev.fsm.FsmException;
import dev.fsm.UsageException;
import dev.fsm.access.StoreAccess;
import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.Json;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.cli.terminal.ProgressLine;
import dev.fsm.operations.Operations;
import dev.fsm.operations.Transfers;
import dev.fsm.store.StorePurpose;
import dev.fsm.store.transfer.ImportTarget;
import dev.fsm.store.transfer.StoreImport;
import dev.fsm.store.transfer.TransferCounts;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fsm store import}: reads an export into the store, machine versions and tasks. */
@Command(
    name = "import",
    mixinStandardHelpOptions = true,
    header = "Read an export into the store: machine versions, tasks and their histories.",
    description = {
      "Reads FILE, written by `fsm store export`, into the store --store names, creating it"
          + " when missing: machine versions with the same numbers and ids, and every task"
          + " exactly as it was, with its whole history, so ls, show and history print the"
          + " same as on the store it came from.",
      "It reads FILE twice: first to check all of it, and it against the store, so a"
          + " malformed or cut-short file, a task id the store has, or a machine whose"
          + " versions differ from the store's imports nothing (exit 1). With --skip-existing"
          + " tasks whose id the store has are left as they are and counted instead.",
      "A task a runner of the old store held is imported without that lease: a runner of"
          + " this store runs its attempt again, as after a runner crash. Into an embedded"
          + " store a runner (or fsm shell) serves, the import goes through it while it keeps"
          + " working, and the runner runs the imported tasks by their due times."
    },
    footer = {
      "fsm --store /srv/fsm-new store import backup.jsonl",
      "fsm store import backup.jsonl --skip-existing"
    })
public final class Import implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "FILE", description = "An export to read.")
  String file;

  @Option(names = "--skip-existing",
      description = "Leave tasks whose id the store has as they are; import the others.")
  boolean skipExisting;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    GlobalOptions global = GlobalOptions.of(spec);
    PrintWriter err = global.err();
    if (file.equals("-")) {
      throw new UsageException("fsm store import reads FILE twice (to check all of it before"
          + " it writes anything), so it cannot read standard input; save the export to a"
          + " file first");
    }
    Path path = Path.of(file);
    readable(path);
    StoreImport.Report r;
    String verb = "fsm store import";
    StoreAccess access = StoreAccess.standard();
    StoreAccess.Located at = access.locate(global.store(), StorePurpose.WRITE, verb, true);
    Operations[] opened = new Operations[1];
    Supplier<ImportTarget> open = () -> Transfers.importInto(opened[0] = access.operations(at,
        StorePurpose.WRITE, verb, true, global.machines(), TaskAccess.notice(global)));
    try {
      ProgressLine line = ProgressLine.onStderr(err);
      StoreImport.Source source = () -> Files.newInputStream(path);
      r = new StoreImport(open, at.exists(), global.store(), source, file, skipExisting,
          (done, total) -> line.show("importing tasks:", done, total)).run();
    } finally {
      if (opened[0] != null) {
        opened[0].close();
      }
    }
    double seconds = Math.max(r.took().toNanos() / 1e9, 1e-3);
    long perSecond = Math.round(r.imported().tasks() / seconds);
    if (global.json()) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("file", file);
      doc.put("machine_versions", r.imported().versions());
      doc.put("machine_versions_known", r.versionsKnown());
      doc.put("tasks", r.imported().tasks());
      doc.put("history_entries", r.imported().historyEntries());
      doc.put("skipped", r.skipped());
      doc.put("leases_dropped", r.leasesDropped());
      doc.put("seconds", Math.round(seconds * 1000) / 1000.0);
      Json.print(spec.commandLine().getOut(), doc);
    }
    err.println(summary(r, seconds, perSecond, opened[0] == null ? Operations.LOCAL
        : opened[0].via()));
    if (r.leasesDropped() > 0) {
      err.println(String.format(Locale.ROOT, "fsm: %,d of them %s held by a runner of the old"
          + " store: imported unleased, a runner of this store runs their attempt again",
          r.leasesDropped(), r.leasesDropped() == 1 ? "was" : "were"));
    }
    return ExitCodes.OK;
  }

  private String summary(StoreImport.Report r, double seconds, long perSecond, String via) {
    TransferCounts c = r.imported();
    StringBuilder s = new StringBuilder("fsm: imported " + c.summary() + " from " + file
        + String.format(Locale.ROOT, " in %.1f s (%,d tasks/s)", seconds, perSecond)
        + (via.equals(Operations.LOCAL) ? "" : " through " + via));
    if (r.versionsKnown() > 0) {
      s.append(String.format(Locale.ROOT, "; %,d machine version%s the store had already",
          r.versionsKnown(), r.versionsKnown() == 1 ? "" : "s"));
    }
    if (skipExisting) {
      s.append(String.format(Locale.ROOT, "; skipped %,d task%s whose id the store has",
          r.skipped(), r.skipped() == 1 ? "" : "s"));
    }
    return s.toString();
  }

  /** Refuses a FILE that cannot be read before the store is opened (or created). */
  private void readable(Path path) {
    if (!Files.exists(path)) {
      throw new FsmException("cannot read " + file + ": no such file");
    }
    if (Files.isDirectory(path)) {
      throw new FsmException(file + " is a folder, not an export file");
    }
    if (!Files.isReadable(path)) {
      throw new FsmException("cannot read " + file + ": permission denied");
    }
  }
}

package dev.fsm.cli.verb.store;

import dev.fsm.cli.common.BuildVersion;
import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.cli.terminal.ProgressLine;
import dev.fsm.files.DiskFailure;
import dev.fsm.operations.Operations;
import dev.fsm.operations.Transfers;
import dev.fsm.store.transfer.ExportFile;
import dev.fsm.store.transfer.StoreExport;
import dev.fsm.store.transfer.TransferCounts;
import dev.fsm.store.transfer.TransferProgress;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fsm store export}: every machine version, task and history as JSON lines. */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    header = "Write every machine version, task and history as JSON lines.",
    description = {
      "Writes the store's machine versions, then every task in id order with its whole"
          + " history, in the versioned format of docs/export-format.md, to FILE or, with no"
          + " FILE or -, to standard output. `fsm store import` reads it into another store"
          + " (embedded or PostgreSQL), where ls, show and history print the same.",
      "FILE is written beside itself under a hidden .partial name and renamed when whole, so"
          + " a failed export never leaves a file that looks whole; an existing FILE is"
          + " replaced only with --force. The file is readable by its owner only.",
      "An embedded store that a runner (or fsm shell) serves is exported through it while it"
          + " keeps working, as a PostgreSQL store with runners at work is: each task as it was"
          + " when its page was read. Stop the runners first for a copy of one moment."
    },
    footer = {
      "fsm store export all.jsonl && fsm --store /srv/new store import all.jsonl"
    })
public final class Export implements Callable<Integer> {

  @Parameters(index = "0", arity = "0..1", paramLabel = "FILE",
      description = "Where to write (default: standard output, also for -).")
  String file;

  @Option(names = "--force", description = "Replace FILE if it exists.")
  boolean force;

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    GlobalOptions global = GlobalOptions.of(spec);
    PrintWriter err = global.err();
    boolean toStdout = file == null || file.equals("-");
    Path path = toStdout ? null : Path.of(file);
    String verb = "fsm store export";
    ExportFile out = toStdout ? null : ExportFile.create(path, force);
    try (out; Operations operations = TaskAccess.open(global, verb, false)) {
      Writer w = toStdout ? stdout() : out.writer();
      ProgressLine line = ProgressLine.onStderr(err);
      TransferProgress progress = (done, total) -> line.show("exporting tasks:", done, total);
      long start = System.nanoTime();
      TransferCounts counts;
      try {
        counts = StoreExport.run(Transfers.exportFrom(operations), w, BuildVersion.get(), Instant.now(),
            progress);
        w.flush();
      } catch (IOException e) {
        throw DiskFailure.of(path == null ? Path.of("-") : path, "cannot write "
            + (path == null ? "standard output" : path.toString()), e);
      }
      if (out != null) {
        out.commit();
      }
      err.println("fsm: exported " + counts.summary() + " to "
          + (toStdout ? "standard output" : file) + " in " + seconds(start)
          + (operations.via().equals(Operations.LOCAL) ? "" : " through " + operations.via()
              + ", which kept working: each task as it was when read"));
    }
    return ExitCodes.OK;
  }

  /** Seconds since {@code startNanos}, e.g. "2.3 s". */
  private static String seconds(long startNanos) {
    return String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - startNanos) / 1e9);
  }

  /** Standard output as UTF-8, buffered, not closed by the verb. */
  private static Writer stdout() {
    return new BufferedWriter(new OutputStreamWriter(new FileOutputStream(FileDescriptor.out),
        StandardCharsets.UTF_8), 1 << 16);
  }
}

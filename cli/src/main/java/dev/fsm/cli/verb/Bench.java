package dev.fsm.cli.verb;

import dev.fsm.FsmException;
import dev.fsm.bench.BenchListener;
import dev.fsm.bench.BenchOptions;
import dev.fsm.bench.BenchReport;
import dev.fsm.bench.StoreBenchmark;
import dev.fsm.cli.ExitCodes;
import dev.fsm.cli.Fsm;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code fsm bench}: measures the store on this machine against issue 3's targets. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    header = "Measure durable throughput, latency, size and recovery on this machine.",
    description = {
      "With --store-only: the journal alone and the embedded store with 1, 4 and 64 concurrent"
          + " writers, ack latency at half load, and a store of --tasks tasks (bytes on disk,"
          + " heap, reopen and rebuild times), in a fresh folder that is deleted at the end.",
      "Prints each measure with its target. The runner benchmark (--workers, --states) needs"
          + " the task runner and is not in this build."
    })
public final class Bench implements Callable<Integer> {

  /** File systems in memory, where an fsync costs nothing and the numbers would mislead. */
  private static final Set<String> MEMORY_FILE_SYSTEMS = Set.of("tmpfs", "ramfs");

  @Option(names = "--tasks", paramLabel = "N", defaultValue = "1000000",
      description = "Tasks to store for the size, heap, reopen and rebuild measures"
          + " (default: ${DEFAULT-VALUE}).")
  int tasks;

  @Option(names = "--workers", paramLabel = "N", defaultValue = "4",
      description = "Runner workers (runner benchmark; not in this build).")
  int workers;

  @Option(names = "--states", paramLabel = "K", defaultValue = "5",
      description = "States per machine (runner benchmark; not in this build).")
  int states;

  @Option(names = "--store-only", description = "Measure the store alone, without the runner.")
  boolean storeOnly;

  @Option(names = "--seconds", paramLabel = "S", defaultValue = "5",
      description = "Seconds per throughput measure (default: ${DEFAULT-VALUE}).")
  double seconds;

  @Option(names = "--writers", paramLabel = "N,N", split = ",", defaultValue = "1,4,64",
      description = "Concurrent writer counts to measure (default: ${DEFAULT-VALUE}).")
  List<Integer> writers;

  @Option(names = "--context-bytes", paramLabel = "N", defaultValue = "200",
      description = "Size of each task's JSON context (default: ${DEFAULT-VALUE}).")
  int contextBytes;

  @Option(names = "--dir", paramLabel = "DIR", defaultValue = ".",
      description = "Folder on the disk to measure, in which a temporary .fsm-bench-* folder is"
          + " made and deleted (default: the current folder).")
  Path dir;

  @ParentCommand Fsm fsm;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    BenchOptions options = options();
    BenchListener listener = new BenchProgress(err);
    BenchReport report;
    try {
      report = StoreBenchmark.run(options, listener);
    } catch (IOException e) {
      throw new FsmException("bench in " + dir.toAbsolutePath() + " failed: " + e, e);
    }
    if (fsm.global().json()) {
      Json.print(out, BenchJson.of(report));
    } else {
      BenchTable.print(report, out);
    }
    return ExitCodes.OK;
  }

  private BenchOptions options() {
    if (!storeOnly) {
      throw usage("only `fsm bench --store-only` is available in this build: the runner"
          + " benchmark (--workers, --states) needs the task runner, which is not built yet");
    }
    if (tasks < 1) {
      throw usage("--tasks must be at least 1, not " + tasks);
    }
    if (contextBytes < 2) {
      throw usage("--context-bytes must be at least 2 (the smallest JSON object, {}), not "
          + contextBytes);
    }
    if (!(seconds > 0) || Double.isInfinite(seconds)) {
      throw usage("--seconds must be a positive number of seconds, not " + seconds);
    }
    for (int w : writers) {
      if (w < 1 || w > 1024) {
        throw usage("--writers must be writer counts from 1 to 1024, such as 1,4,64; not " + w);
      }
    }
    if (MEMORY_FILE_SYSTEMS.contains(fileSystemOf(dir))) {
      throw usage("--dir " + dir + " is in memory (" + fileSystemOf(dir) + "), where an fsync"
          + " costs nothing; choose a folder on the disk to measure");
    }
    return new BenchOptions(dir, tasks, contextBytes, seconds, writers.stream().distinct()
        .toList(), BenchOptions.DEFAULT_CLAIM_BATCH, BenchOptions.DEFAULT_CREATE_BATCH);
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /** The file system type of the folder, or of its nearest existing parent. */
  private static String fileSystemOf(Path folder) {
    Path p = folder.toAbsolutePath();
    while (p != null && !Files.exists(p)) {
      p = p.getParent();
    }
    try {
      return p == null ? "" : Files.getFileStore(p).type().toLowerCase(Locale.ROOT);
    } catch (IOException e) {
      return "";
    }
  }
}

package dev.fsm.cli.verb;

import dev.fsm.FsmException;
import dev.fsm.bench.BenchListener;
import dev.fsm.bench.BenchOptions;
import dev.fsm.bench.BenchReport;
import dev.fsm.bench.StoreBenchmark;
import dev.fsm.bench.runner.RunnerBenchOptions;
import dev.fsm.bench.runner.RunnerBenchReport;
import dev.fsm.bench.runner.RunnerBenchmark;
import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.Json;
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
import picocli.CommandLine.Spec;

/**
 * {@code fsm bench}: measures the runner (by default) or the store alone ({@code --store-only}) on
 * this machine, against the issues' targets.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    header = "Measure durable throughput, latency, size and recovery on this machine.",
    description = {
      "By default: a fresh embedded store and a synthetic machine (a chain of --states"
          + " builtin:noop states); --tasks tasks run on each --workers count, then due-to-"
          + " recorded latency at half the best rate, then how soon a command sent over the"
          + " control socket reaches a running action.",
      "With --store-only: the journal alone and the embedded store with 1, 4 and 64 concurrent"
          + " writers, ack latency at half load, and a store of --tasks tasks (bytes on disk,"
          + " heap, reopen and rebuild times).",
      "With --runners R (PostgreSQL): R `fsm run` processes of --workers workers each on"
          + " --store, serving --tasks tasks of the same machine, from the first claim to the"
          + " last completion, with the server's commits and log bytes per transition.",
      "Everything happens in a temporary folder under --dir, deleted at the end. Prints each"
          + " measure with its target."
    },
    footer = {
      "fsm bench --workers 4 --tasks 5000",
      "fsm bench --store-only",
      "fsm bench --store postgresql://fsm@db1/fsm --runners 3 --workers 4"
    })
public final class Bench implements Callable<Integer> {

  /** File systems in memory, where an fsync costs nothing and the numbers would mislead. */
  private static final Set<String> MEMORY_FILE_SYSTEMS = Set.of("tmpfs", "ramfs");

  @Option(names = "--tasks", paramLabel = "N",
      description = "Tasks per runner run (default: 20000); with --store-only, tasks to store"
          + " for the size, heap, reopen and rebuild measures (default: 1000000).")
  Integer tasks;

  @Option(names = "--workers", paramLabel = "N,N", split = ",",
      description = "Runner worker counts to measure (default: 1,2,4); with --runners, the"
          + " workers of each runner (default: 4).")
  List<Integer> workers;

  @Option(names = "--runners", paramLabel = "R",
      description = "PostgreSQL: start R `fsm run` processes on --store and measure them"
          + " together: transitions/s per runner and in total, commits and log bytes per"
          + " transition. The store must hold no tasks (give a new ?schema=).")
  Integer runners;

  @Option(names = "--lease", paramLabel = "DURATION", defaultValue = "30s",
      description = "With --runners: the runners' lease (default: ${DEFAULT-VALUE}).")
  String lease;

  @Option(names = "--states", paramLabel = "K", defaultValue = "5",
      description = "Action states in the synthetic machine (default: ${DEFAULT-VALUE}).")
  int states;

  @Option(names = "--sends", paramLabel = "N", defaultValue = "200",
      description = "Commands sent to a running action (default: ${DEFAULT-VALUE}).")
  int sends;

  @Option(names = "--store-only", description = "Measure the store alone, without the runner.")
  boolean storeOnly;

  @Option(names = "--seconds", paramLabel = "S", defaultValue = "5",
      description = "Seconds per throughput measure (default: ${DEFAULT-VALUE}).")
  double seconds;

  @Option(names = "--writers", paramLabel = "N,N", split = ",", defaultValue = "1,4,64",
      description = "Concurrent writer counts to measure (default: ${DEFAULT-VALUE}).")
  List<Integer> writers;

  @Option(names = "--rounds", paramLabel = "N", defaultValue = "1",
      description = "With --store-only: measure the bare log and the store recording outcomes"
          + " one by one N times in turn, for each writer count, after a round that warms"
          + " both up and is not counted, and report the median round and the lowest and"
          + " highest ratio (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(names = "--context-bytes", paramLabel = "N", defaultValue = "200",
      description = "Size of each task's JSON context (default: ${DEFAULT-VALUE}).")
  int contextBytes;

  @Option(names = "--dir", paramLabel = "DIR", defaultValue = ".",
      description = "Folder on the disk to measure, in which a temporary .fsm-bench-* folder is"
          + " made and deleted (default: the current folder).")
  Path dir;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    checkDir();
    if (rounds != 1 && !storeOnly) {
      throw usage("--rounds applies to --store-only alone; add --store-only or leave --rounds"
          + " out");
    }
    if (runners != null) {
      return FleetBench.run(this, out, err);
    }
    if (!storeOnly) {
      return runnerBench(out, err);
    }
    BenchOptions options = options();
    BenchListener listener = new BenchProgress(err);
    BenchReport report;
    try {
      report = StoreBenchmark.run(options, listener);
    } catch (IOException e) {
      throw new FsmException("bench in " + dir.toAbsolutePath() + " failed: " + e, e);
    }
    if (GlobalOptions.of(spec).json()) {
      Json.print(out, BenchJson.of(report));
    } else {
      BenchTable.print(report, out);
    }
    return ExitCodes.OK;
  }

  private int runnerBench(PrintWriter out, PrintWriter err) {
    int n = tasks == null ? 20_000 : tasks;
    if (n < 1) {
      throw usage("--tasks must be at least 1, not " + n);
    }
    if (states < 1 || states > 1000) {
      throw usage("--states must be from 1 to 1000, not " + states);
    }
    if (sends < 1) {
      throw usage("--sends must be at least 1, not " + sends);
    }
    List<Integer> counts = workers == null ? List.of(1, 2, 4) : workers;
    for (int w : counts) {
      if (w < 1 || w > 1024) {
        throw usage("--workers must be worker counts from 1 to 1024, such as 1,2,4; not " + w);
      }
    }
    RunnerBenchOptions options = new RunnerBenchOptions(dir, n, states,
        counts.stream().distinct().toList(), 3.0, sends);
    RunnerBenchReport report;
    try {
      report = RunnerBenchmark.run(options, what -> {
        err.println("bench: " + what + "...");
        err.flush();
      });
    } catch (IOException e) {
      throw new FsmException("bench in " + dir.toAbsolutePath() + " failed: " + e, e);
    }
    if (GlobalOptions.of(spec).json()) {
      Json.print(out, RunnerBenchPrint.json(report));
    } else {
      RunnerBenchPrint.text(report, out);
    }
    return ExitCodes.OK;
  }

  private BenchOptions options() {
    int n = tasks == null ? 1_000_000 : tasks;
    if (n < 1) {
      throw usage("--tasks must be at least 1, not " + n);
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
    if (rounds < 1 || rounds > 100) {
      throw usage("--rounds must be from 1 to 100, not " + rounds);
    }
    return new BenchOptions(dir, n, contextBytes, seconds, writers.stream().distinct()
        .toList(), BenchOptions.DEFAULT_CLAIM_BATCH, BenchOptions.DEFAULT_CREATE_BATCH, rounds);
  }

  private void checkDir() {
    if (MEMORY_FILE_SYSTEMS.contains(fileSystemOf(dir))) {
      throw usage("--dir " + dir + " is in memory (" + fileSystemOf(dir) + "), where an fsync"
          + " costs nothing; choose a folder on the disk to measure");
    }
  }

  ParameterException usage(String message) {
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

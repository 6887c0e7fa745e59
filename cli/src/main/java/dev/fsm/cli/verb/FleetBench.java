package dev.fsm.cli.verb;

import dev.fsm.FsmException;
import dev.fsm.access.StoreAccess;
import dev.fsm.bench.fleet.FleetBenchOptions;
import dev.fsm.bench.fleet.FleetBenchReport;
import dev.fsm.bench.fleet.FleetBenchmark;
import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.Json;
import dev.fsm.model.Durations;
import dev.fsm.store.Ownership;
import dev.fsm.store.StorePurpose;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code fsm bench --runners R}: checks the options and the store, starts the fleet with this
 * very fsm (the same java and class path) and prints what it measured.
 */
final class FleetBench {

  /** The jar's main class, named rather than referenced: verbs do not depend on dev.fsm.cli. */
  private static final String MAIN = "dev.fsm.cli.Main";

  /** As {@code fsm run}'s shortest lease. */
  private static final Duration MIN_LEASE = Duration.ofMillis(600);

  private FleetBench() {}

  static int run(Bench bench, PrintWriter out, PrintWriter err) {
    GlobalOptions global = GlobalOptions.of(bench.spec);
    if (bench.runners < 1 || bench.runners > 64) {
      throw bench.usage("--runners must be from 1 to 64, not " + bench.runners);
    }
    if (bench.storeOnly) {
      throw bench.usage("--runners and --store-only measure different things; give one");
    }
    List<Integer> workers = bench.workers == null ? List.of(4) : bench.workers;
    if (workers.size() != 1 || workers.get(0) < 1 || workers.get(0) > 1024) {
      throw bench.usage("with --runners, --workers is one worker count per runner, from 1 to"
          + " 1024, not " + String.join(",", workers.stream().map(String::valueOf).toList()));
    }
    int tasks = bench.tasks == null ? 5_000 : bench.tasks;
    if (tasks < 1) {
      throw bench.usage("--tasks must be at least 1, not " + tasks);
    }
    if (bench.states < 1 || bench.states > 1000) {
      throw bench.usage("--states must be from 1 to 1000, not " + bench.states);
    }
    Duration lease = lease(bench);
    StoreAccess access = StoreAccess.standard();
    StoreAccess.Located at = access.locate(global.store(), StorePurpose.RUN, "fsm bench", true);
    if (at.kind().ownership() != Ownership.SHARED) {
      throw new FsmException("--runners needs a store that many processes share"
          + " (--store postgresql://...); " + at.location().text() + " is an "
          + at.kind().name() + " store, which one process owns");
    }
    FleetBenchOptions options = new FleetBenchOptions(at.kind(), at.location(), global.store(),
        bench.runners, workers.get(0), tasks, bench.states, lease, bench.dir, thisFsm());
    FleetBenchReport report;
    try {
      report = FleetBenchmark.run(options, what -> {
        err.println("bench: " + what + "...");
        err.flush();
      });
    } catch (IOException e) {
      throw new FsmException("bench in " + bench.dir.toAbsolutePath() + " failed: " + e, e);
    }
    if (global.json()) {
      Json.print(out, FleetBenchPrint.json(report));
    } else {
      FleetBenchPrint.text(report, out);
    }
    return ExitCodes.OK;
  }

  private static Duration lease(Bench bench) {
    Duration lease;
    try {
      lease = Durations.parse(bench.lease);
    } catch (IllegalArgumentException e) {
      throw bench.usage("--lease " + bench.lease + ": " + e.getMessage());
    }
    if (lease.compareTo(MIN_LEASE) < 0) {
      throw bench.usage("--lease " + bench.lease + " is too short: give at least "
          + MIN_LEASE.toMillis() + "ms");
    }
    return lease;
  }

  /** The java and class path running this fsm, so the runners are the same build. */
  private static List<String> thisFsm() {
    String java = ProcessHandle.current().info().command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    return List.of(java, "-XX:-UsePerfData", "-Xlog:disable", "-cp",
        System.getProperty("java.class.path"), MAIN);
  }
}

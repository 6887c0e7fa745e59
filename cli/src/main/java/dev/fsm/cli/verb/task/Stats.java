package dev.fsm.cli.verb.task;

import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.cli.terminal.Table;
import dev.fsm.engine.ShownStatuses;
import dev.fsm.engine.StateStats;
import dev.fsm.operations.MachineBreaker;
import dev.fsm.operations.Operations;
import dev.fsm.task.ShownStatus;
import java.io.PrintWriter;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fsm stats}: per state, tasks by status, attempt durations, error rate and timeout. */
@Command(
    name = "stats",
    mixinStandardHelpOptions = true,
    header = "Per state: tasks by status, p50/p95/p99 durations, error rate, timeout.",
    description = "Durations and error rates come from the histories of each machine's newest"
        + " 20,000 tasks, so they show recent behaviour; counts are exact.",
    footer = {
      "fsm stats",
      "fsm stats order --output json"
    })
public final class Stats implements Callable<Integer> {

  @Parameters(arity = "0..1", paramLabel = "MACHINE",
      description = "One machine (default: every machine with tasks).")
  String machine;

  @Spec CommandSpec spec;

  /** One line per machine shown that has a circuit breaker, under the table. */
  private static void printBreakers(List<StateStats> stats, Map<String, MachineBreaker> breakers,
      PrintWriter out) {
    Set<String> machines = new LinkedHashSet<>();
    stats.forEach(s -> machines.add(s.machine()));
    for (String name : machines) {
      MachineBreaker b = breakers.get(name);
      if (b != null && !b.state().equals(MachineBreaker.NONE)) {
        out.println("breaker of `" + name + "`: " + BreakerText.text(b));
      }
    }
  }

  @Override
  public Integer call() {
    return stats(machine, GlobalOptions.of(spec), spec.commandLine().getOut(),
        spec.commandLine().getErr());
  }

  /**
   * Prints the statistics of {@code machine} (null: every machine); also the fast path's way in,
   * which has no picocli.
   */
  public static int stats(String machine, GlobalOptions global, PrintWriter out,
      PrintWriter err) {
    List<StateStats> stats;
    Map<StateStats, Map<ShownStatus, Long>> counts = new HashMap<>();
    Map<String, MachineBreaker> breakers;
    try (Operations control = TaskAccess.open(global, "fsm stats", false)) {
      if (machine != null) {
        KnownMachine.require(control, machine);
      }
      stats = control.stats(machine);
      ShownStatuses shown = new ShownStatuses(control::versions);
      for (StateStats s : stats) {
        counts.put(s, shown.counts(s.machine(), s.state(), s.counts()));
      }
      breakers = BreakerText.of(control);
    }
    if (global.json()) {
      JsonDocument.print(out, g -> TaskJson.stats(g, stats, counts::get, breakers));
      return ExitCodes.OK;
    }
    if (stats.isEmpty()) {
      err.println("no tasks yet; start one with `fsm start MACHINE`");
      return ExitCodes.OK;
    }
    Table table = new Table("MACHINE", "STATE", "TASKS", "SAMPLES", "P50", "P95", "P99",
        "ERRORS", "TIMEOUT");
    for (StateStats s : stats) {
      table.add(s.machine(), s.state(), TaskText.counts(counts.get(s)), s.samples(),
          TaskText.duration(s.p50()), TaskText.duration(s.p95()), TaskText.duration(s.p99()),
          String.format(Locale.ROOT, "%.1f%%", s.errorRate() * 100), s.timeout());
    }
    table.print(out, global.columns());
    printBreakers(stats, breakers, out);
    return ExitCodes.OK;
  }
}

package dev.fsm.cli.verb.task;

import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.cli.terminal.Table;
import dev.fsm.model.Durations;
import dev.fsm.operations.Operations;
import dev.fsm.operations.PurgeReport;
import dev.fsm.store.PurgeQuery;
import dev.fsm.store.StoreLocation;
import dev.fsm.store.TaskCount;
import dev.fsm.task.TaskStatus;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine;

/** {@code fsm purge}: deletes finished tasks older than an age, with their histories. */
@CommandLine.Command(
    name = "purge",
    mixinStandardHelpOptions = true,
    header = "Delete finished tasks older than an age, with their histories.",
    description = {
      "Deletes completed, failed and killed tasks (or those of the --status given) that"
          + " became terminal longer ago than --older-than, with their histories; their ids may"
          + " be used again. Tasks that are not terminal are never touched. It works a batch at"
          + " a time, so a runner owning the store keeps running meanwhile. On the embedded"
          + " store the space comes back at the next checkpoint; on PostgreSQL, once it"
          + " vacuums the tables.",
      "A machine's `retention: 30d` makes runners do the same for its tasks on their own."
    },
    footer = {
      "fsm purge --older-than 30d --machine order --status completed --dry-run"
    })
public final class Purge implements Callable<Integer> {

  @Option(names = "--older-than", required = true, paramLabel = "DURATION",
      converter = AgeConverter.class,
      description = "Only tasks that became terminal longer ago than this, e.g. 30d or 12h.")
  Duration olderThan;

  @Option(names = "--machine", paramLabel = "M", description = "Only tasks of machine M.")
  String machine;

  @Option(names = "--status", paramLabel = "X", converter = TerminalConverter.class,
      description = "Only tasks with status X: completed, failed or killed; repeat for several"
          + " (default: all three).")
  List<TaskStatus> statuses = new ArrayList<>();

  @Option(names = "--dry-run", description = "Count what would be deleted; delete nothing.")
  boolean dryRun;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    GlobalOptions global = GlobalOptions.of(spec);
    PrintWriter out = spec.commandLine().getOut();
    PurgeQuery query = new PurgeQuery(Optional.ofNullable(machine),
        statuses.isEmpty() ? EnumSet.noneOf(TaskStatus.class) : EnumSet.copyOf(statuses),
        olderThan, dryRun, Optional.empty(), PurgeQuery.BATCH);
    PurgeReport report;
    try (Operations control = TaskAccess.openToWrite(global, "fsm purge")) {
      if (machine != null) {
        KnownMachine.require(control, machine);
      }
      report = control.purge(query);
    }
    String age = Durations.format(olderThan);
    if (global.json()) {
      JsonDocument.print(out, g -> TaskJson.purge(g, age, byMachineAndStatus(report), report));
      return ExitCodes.OK;
    }
    if (report.total() == 0) {
      out.println("purge" + (dryRun ? " (dry run)" : "") + ": no " + what(query)
          + " became terminal more than " + age + " ago; nothing " + (dryRun ? "would be " : "")
          + "deleted");
      return ExitCodes.OK;
    }
    out.println(dryRun
        ? "purge (dry run): " + TaskText.tasks(report.total()) + " would be deleted, terminal"
            + " for more than " + age + "; nothing was changed"
        : "purged " + TaskText.tasks(report.total()) + ", terminal for more than " + age
            + (StoreLocation.parse(global.store()) instanceof StoreLocation.Folder
                ? "; the store gives their space back at its next checkpoint"
                : "; PostgreSQL reuses their space once it vacuums the tables"));
    Table table = new Table("MACHINE", "STATUS", "TASKS");
    byMachineAndStatus(report).forEach((m, counts) -> counts.forEach((status, n) ->
        table.add(m, status.word(), Long.toString(n))));
    table.print(out, global.columns());
    if (global.verbose()) {
      global.err().println("fsm: " + report.batches() + " batches in " + report.took().toMillis()
          + " ms; the store's lock was held at most " + millis(report.longestHold())
          + " ms at a time");
    }
    return ExitCodes.OK;
  }

  private String what(PurgeQuery query) {
    List<String> words = new ArrayList<>();
    for (TaskStatus s : EnumSet.copyOf(query.statuses())) {
      words.add(s.word());
    }
    String last = words.remove(words.size() - 1);
    return (words.isEmpty() ? "" : String.join(", ", words) + " or ") + last + " tasks"
        + (machine == null ? "" : " of machine " + machine);
  }

  private static String millis(Duration d) {
    return String.format(Locale.ROOT, "%.1f", d.toNanos() / 1e6);
  }

  /** Counts per machine, then status (the states summed). */
  static Map<String, Map<TaskStatus, Long>> byMachineAndStatus(PurgeReport report) {
    Map<String, Map<TaskStatus, Long>> by = new TreeMap<>();
    for (TaskCount c : report.purged()) {
      by.computeIfAbsent(c.machine(), m -> new EnumMap<>(TaskStatus.class))
          .merge(c.status(), c.count(), Long::sum);
    }
    return by;
  }

  /** Reads {@code --older-than}: a duration such as {@code 30d}. */
  static final class AgeConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String text) {
      try {
        return Durations.parse(text);
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** Reads {@code --status}: only the terminal statuses a purge may delete. */
  static final class TerminalConverter implements ITypeConverter<TaskStatus> {
    @Override
    public TaskStatus convert(String word) {
      List<String> allowed = new ArrayList<>();
      for (TaskStatus s : EnumSet.copyOf(PurgeQuery.terminal())) {
        allowed.add(s.word());
      }
      Optional<TaskStatus> status = TaskStatus.parse(word);
      if (status.isPresent() && !status.get().isTerminal()) {
        throw new TypeConversionException("purge deletes only finished tasks, never " + word
            + " ones (one of: " + String.join(", ", allowed) + ")");
      }
      return status.orElseThrow(() -> new TypeConversionException(
          Words.unknown("status", word, allowed)));
    }
  }
}

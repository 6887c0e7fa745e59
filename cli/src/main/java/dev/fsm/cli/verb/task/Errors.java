package dev.fsm.cli.verb.task;

import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.cli.terminal.Table;
import dev.fsm.engine.ErrorGroup;
import dev.fsm.engine.ErrorReport;
import dev.fsm.operations.Operations;
import dev.fsm.store.ErrorQuery;
import java.io.PrintWriter;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fsm errors}: the attempt errors of all tasks since a time, grouped by message. */
@Command(
    name = "errors",
    mixinStandardHelpOptions = true,
    header = "Errors of all tasks since a time, grouped by message, most frequent first.",
    description = {
      "Reads every attempt that ended in an error or a timeout from the tasks' histories"
          + " (whether its retry policy retried it, an edge routed it, or it failed the task),"
          + " so errors stay visible after a task moved on or was redriven; a purged task's"
          + " errors go with it. Messages are grouped per machine and state with their"
          + " variable parts masked: \"<text>\" and '<text>' for quoted values, <url>, <id>"
          + " (UUIDs, task ids, words of 8 or more characters mixing letters and digits),"
          + " <path>, <ip>, <hex> and <n> for numbers; the retry policy's decision after a"
          + " message (\"; retry in 10m (2 of 8 errors in 4h)\") is left out, so one cause is"
          + " one group whether it was retried or gave up. Each group shows how many errors and"
          + " distinct tasks it has, when it was first and last seen, and its newest message"
          + " with its task.",
      "",
      "--output json prints one document: {\"since\", \"errors\", \"group_count\", \"groups\":"
          + " [{\"pattern\", \"machine\", \"state\", \"count\", \"tasks\", \"first_seen\","
          + " \"last_seen\", \"example\": {\"task_id\", \"message\"}}]} (docs/errors.md)."},
    footer = {
      "fsm errors",
      "fsm errors --machine payout --state send --since 2h",
      "fsm errors --since 2026-11-24T09:00 --limit 5 --output json"
    })
public final class Errors implements Callable<Integer> {

  @Option(names = "--machine", paramLabel = "M", description = "Errors of this machine only.")
  String machine;

  @Option(names = "--state", paramLabel = "S",
      description = "Errors of attempts in this state only.")
  String state;

  @Option(names = "--since", paramLabel = "DURATION|TIME", defaultValue = "24h",
      converter = Since.class,
      description = "Errors recorded since this long ago (24h, 30m, 7d) or since this"
          + " ISO-8601 time (2026-11-24T09:00, 2026-11-24T09:00:00Z); default: ${DEFAULT-VALUE}.")
  Instant since;

  @Option(names = "--limit", paramLabel = "N", defaultValue = "20", converter = Limit.class,
      description = "Show at most N groups, the most frequent (default: ${DEFAULT-VALUE}).")
  int limit;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    GlobalOptions global = GlobalOptions.of(spec);
    PrintWriter out = spec.commandLine().getOut();
    ErrorReport report;
    try (Operations control = TaskAccess.open(global, "fsm errors", false)) {
      if (machine != null) {
        KnownMachine.require(control, machine);
      }
      if (state != null) {
        KnownState.require(control, machine, state);
      }
      report = control.errors(new ErrorQuery(since, Optional.ofNullable(machine),
          Optional.ofNullable(state)), limit);
    }
    if (global.json()) {
      JsonDocument.print(out, g -> TaskJson.errors(g, report));
      return ExitCodes.OK;
    }
    if (report.groups().isEmpty()) {
      spec.commandLine().getErr().println("no errors since " + TaskText.time(since)
          + where() + "; `fsm errors --since 7d` looks further back");
      return ExitCodes.OK;
    }
    Table table = new Table("COUNT", "TASKS", "MACHINE", "STATE", "FIRST SEEN", "LAST SEEN",
        "ERROR", "EXAMPLE TASK", "EXAMPLE");
    for (ErrorGroup g : report.groups()) {
      table.add(count(g.count()), count(g.tasks()), g.machine(), g.state(),
          TaskText.time(g.firstSeen()), TaskText.time(g.lastSeen()), g.pattern(),
          g.exampleTask(), g.example());
    }
    table.print(out, global.columns());
    out.println(count(report.errors()) + (report.errors() == 1 ? " error" : " errors") + " in "
        + count(report.groupCount()) + (report.groupCount() == 1 ? " group" : " groups")
        + " since " + TaskText.time(since) + where()
        + (report.groups().size() < report.groupCount() ? "; showing the " + report.groups()
            .size() + " most frequent (raise --limit to see more)" : ""));
    return ExitCodes.OK;
  }

  /** The filters, as words after "since ...". */
  private String where() {
    String of = machine == null ? "" : " of machine `" + machine + "`";
    return state == null ? of : of + " in state `" + state + "`";
  }

  private static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }
}

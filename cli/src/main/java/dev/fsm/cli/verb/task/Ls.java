package dev.fsm.cli.verb.task;

import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.engine.ShownStatuses;
import dev.fsm.operations.ListPages;
import dev.fsm.operations.Operations;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.ShownStatus;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/** {@code fsm ls}: a page of tasks, optionally of one machine, state or some statuses. */
@Command(
    name = "ls",
    mixinStandardHelpOptions = true,
    header = "List tasks, oldest first.",
    description = {"Tasks oldest first (by creation) unless --sort says otherwise; --reverse"
        + " flips the order. DUE/UPDATED is when a scheduled task is due, else when it last"
        + " changed: on a terminal as an age (`in 5m`, `2h ago`; s, m, h, d), otherwise, for"
        + " scripts and logs, as a local time to the second (--output json gives ISO-8601"
        + " times). A runnable task in a state that waits for `fsm signal` shows as waiting.",
        "", "-q prints the ids alone, one a line, for scripts; the filters, --sort and --limit"
        + " apply as without it."},
    footer = {
      "fsm ls --machine order --status fault --sort updated --reverse --limit 10",
      "# ids only, for scripts",
      "fsm ls -q --status fault | xargs -n1 fsm show"
    })
public final class Ls implements Callable<Integer> {

  @Option(names = "--machine", paramLabel = "M", description = "Only tasks of machine M.")
  String machine;

  @Option(names = "--state", paramLabel = "S", description = "Only tasks in state S.")
  String state;

  @Option(names = "--status", paramLabel = "X", converter = Words.ShownStatusConverter.class,
      description = "Only tasks with status X (runnable, waiting, sleeping, paused, fault,"
          + " completed, failed, killed); repeat for any of several.")
  List<ShownStatus> statuses = new ArrayList<>();

  @Option(names = "--sort", paramLabel = "created|updated|id",
      converter = SortConverter.class, description = "Order by created (default), updated or id.")
  TaskQuery.Sort sort = TaskQuery.Sort.CREATED;

  @Option(names = "--reverse", description = "Newest (or largest) first.")
  boolean reverse;

  @Option(names = "--limit", paramLabel = "N", defaultValue = "50", converter = Limit.class,
      description = "Show at most N tasks (default: ${DEFAULT-VALUE}).")
  int limit;

  @Option(names = {"-q", "--quiet"}, description = "Print only the ids, one a line.")
  boolean quiet;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    GlobalOptions global = GlobalOptions.of(spec);
    if (quiet && global.json()) {
      throw new ParameterException(spec.commandLine(), "-q prints ids only and --output json"
          + " whole tasks; give one of them");
    }
    return list(new Listing(machine, state, Set.copyOf(statuses), sort, reverse, limit, quiet),
        global, spec.commandLine().getOut(), spec.commandLine().getErr());
  }

  /** What {@code fsm ls} was asked for, its options checked. */
  public record Listing(String machine, String state, Set<ShownStatus> statuses,
      TaskQuery.Sort sort, boolean reverse, int limit, boolean quiet) {}

  /** Lists tasks as {@code asked}; also the fast path's way in, which has no picocli. */
  public static int list(Listing asked, GlobalOptions global, PrintWriter out, PrintWriter err) {
    int limit = asked.limit();
    long listed;
    boolean more;
    long matching;
    LsOutput output = LsOutput.of(asked.quiet(), global, out);
    try (Operations control = TaskAccess.open(global, "fsm ls", false)) {
      if (asked.machine() != null) {
        KnownMachine.require(control, asked.machine());
      }
      if (asked.state() != null) {
        KnownState.require(control, asked.machine(), asked.state());
      }
      // One more than asked for, to know whether to say that more exist; read a page at a
      // time and printed as read, so a list of any length holds a page; contexts only for
      // JSON, the one view that shows them.
      TaskQuery query = new TaskQuery(Optional.ofNullable(asked.machine()),
          Optional.ofNullable(asked.state()), asked.statuses(), Optional.empty(),
          limit == Integer.MAX_VALUE ? limit : limit + 1,
          asked.reverse() ? TaskQuery.Order.DESCENDING : TaskQuery.Order.ASCENDING,
          asked.sort());
      ShownStatuses statusOf = new ShownStatuses(control::versions);
      long[] shown = {0};
      boolean[] unread = {false};
      long read = ListPages.each(control, query, global.json(), t -> {
        if (shown[0] == limit) {
          return false;
        }
        shown[0]++;
        unread[0] = !output.add(t, statusOf.of(t));
        return !unread[0];
      });
      listed = shown[0];
      // Nobody reads what is left to say once the output's reader went away.
      more = read > limit && !unread[0];
      matching = more ? matching(control, asked) : listed;
    }
    output.end(listed == 0);
    if (listed == 0 && !global.json() && !asked.quiet()) {
      err.println("no tasks" + (asked.machine() != null || asked.state() != null
          || !asked.statuses().isEmpty() ? " match" : " yet; start one with `fsm start MACHINE`"));
    }
    if (more) {
      err.println("showing " + limit + " of " + matching + " matching tasks; narrow with"
          + " --machine, --state or --status, or raise --limit");
    }
    return ExitCodes.OK;
  }

  /**
   * How many tasks match: from the counts per machine, state and status when waiting and
   * runnable need not be told apart, else by paging through the matching ids.
   */
  private static long matching(Operations control, Listing asked) {
    Set<ShownStatus> wanted = asked.statuses();
    ShownStatuses counted = new ShownStatuses(control::versions);
    long n = 0;
    for (TaskCount c : control.counts()) {
      if ((asked.machine() == null || asked.machine().equals(c.machine()))
          && (asked.state() == null || asked.state().equals(c.state()))
          && (wanted.isEmpty() || wanted.contains(counted.of(c)))) {
        n += c.count();
      }
    }
    return n;
  }

  /** Reads {@code --sort} as one of its words. */
  static final class SortConverter implements ITypeConverter<TaskQuery.Sort> {
    @Override
    public TaskQuery.Sort convert(String word) {
      for (TaskQuery.Sort s : TaskQuery.Sort.values()) {
        if (s.name().toLowerCase(Locale.ROOT).equals(word)) {
          return s;
        }
      }
      throw new TypeConversionException(Words.unknown("sort", word,
          List.of("created", "updated", "id")));
    }
  }
}

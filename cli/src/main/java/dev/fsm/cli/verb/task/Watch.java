package dev.fsm.cli.verb.task;

import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.LiveView;
import dev.fsm.cli.common.StopSignal;
import dev.fsm.cli.terminal.Style;
import dev.fsm.cli.terminal.Table;
import dev.fsm.engine.ShownStatuses;
import dev.fsm.operations.RunnerReport;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code fsm watch}: the tasks that changed most recently, refreshed in place like top. */
@Command(
    name = "watch",
    mixinStandardHelpOptions = true,
    header = "Show tasks refreshed in place, like top.",
    description = {
        "The runners serving the store (or `no runner`), counts by status, then the tasks"
            + " that changed most recently, redrawn every"
            + " --interval until Ctrl-C. It polls: each refresh asks the runner that owns the"
            + " store, or opens the store briefly, so it never blocks a runner. When the runner"
            + " stops or is killed it carries on with the next one, or the store itself, and"
            + " says so once on stderr.",
        "",
        "When output is not a terminal it prints a new table only when something changed;"
            + " with --output json, one JSON line per refresh."},
    footer = {
      "fsm watch",
      "fsm watch --machine order --status fault"
    })
public final class Watch implements Callable<Integer>, LiveView {

  /** Tasks read per refresh, to sort by last change; more are counted but not listed. */
  private static final int READ = 1000;

  @Mixin LiveOptions live;

  @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "1s",
      converter = LiveOptions.Interval.class,
      description = "Time between refreshes (default: ${DEFAULT-VALUE}, at least 100ms).")
  Duration interval;

  @Option(names = {"-n", "--count"}, paramLabel = "N",
      description = "Stop after N refreshes (default: until Ctrl-C).")
  Integer count;

  @Spec CommandSpec spec;

  /**
   * One poll: the tasks (those the store knows changed most recently, newest first, then others
   * it read by id), how many came first, whether the others were cut at READ, the counts, how each shows (read while the store was
   * open), and the store's runners.
   */
  private record Polled(List<Task> tasks, int known, boolean othersCut, List<TaskCount> counts,
      Map<String, ShownStatus> tasksShow, Map<TaskCount, ShownStatus> countsShow,
      RunnerReport runners) {

    static Polled of(List<Task> recent, List<Task> others, List<TaskCount> counts,
        ShownStatuses shown, RunnerReport runners) {
      List<Task> tasks = new ArrayList<>(recent);
      Set<String> seen = new HashSet<>();
      recent.forEach(t -> seen.add(t.id()));
      others.stream().filter(t -> !seen.contains(t.id()))
          .sorted(Comparator.comparing(Task::updated).reversed()).forEach(tasks::add);
      Map<String, ShownStatus> tasksShow = new HashMap<>();
      tasks.forEach(t -> tasksShow.put(t.id(), shown.of(t)));
      Map<TaskCount, ShownStatus> countsShow = new HashMap<>();
      counts.forEach(c -> countsShow.put(c, shown.of(c)));
      return new Polled(tasks, recent.size(), others.size() >= READ, counts, tasksShow,
          countsShow, runners);
    }
  }

  @Override
  public void stopOn(StopSignal stop) {
    live.stop = stop;
  }

  @Override
  public Integer call() {
    if (count != null && count < 1) {
      throw new ParameterException(spec.commandLine(), "--count must be at least 1");
    }
    GlobalOptions global = GlobalOptions.of(spec);
    PrintWriter out = spec.commandLine().getOut();
    boolean screen = System.console() != null && !global.json();
    Style style = Style.forTerminal(global.colorAllowed());
    List<String> last = List.of();
    LiveAccess access = new LiveAccess(global, "fsm watch", spec.commandLine().getErr(),
        live.stop);
    for (int n = 1; ; n++) {
      boolean first = n == 1;
      Optional<Polled> polled = access.poll(control -> {
        if (first) {
          live.requireKnown(control);
        }
        // The store's recent changes are exact; when they are too few (it was opened since),
        // the rest are the latest changes among the first READ tasks by id.
        List<Task> recent = control.recentlyChanged(live.query(READ));
        List<Task> others = recent.size() < READ ? control.list(live.query(READ), false)
            : List.of();
        return Polled.of(recent, others, control.counts(), new ShownStatuses(control::versions),
            control.runners());
      });
      if (polled.isEmpty()) {
        return ExitCodes.OK;
      }
      Instant now = Instant.now();
      List<TaskCount> counts = polled.get().counts();
      List<Task> tasks = polled.get().tasks();
      if (global.json()) {
        JsonDocument.line(out, g -> TaskJson.watchFrame(g, now, polled.get().runners(),
            byStatus(polled.get()), tasks, t -> polled.get().tasksShow().get(t.id())));
      } else {
        List<String> frame = frame(global, style, polled.get(), tasks);
        if (screen) {
          out.print("\u001b[H\u001b[2J");
          out.println(style.bold("fsm watch") + "  every " + TaskText.duration(interval) + "  "
              + TaskText.time(now) + "  Ctrl-C stops");
          frame.forEach(out::println);
        } else if (!frame.equals(last)) {
          out.println(TaskText.time(now));
          frame.forEach(out::println);
          out.println();
        }
        last = frame;
      }
      out.flush();
      if ((count != null && n >= count) || live.stop.await(interval)) {
        return ExitCodes.OK;
      }
    }
  }

  private List<String> frame(GlobalOptions global, Style style, Polled polled,
      List<Task> tasks) {
    List<String> lines = new ArrayList<>();
    // A backlog with no runner must never look like a slow one.
    String runners = RunnerText.header(polled.runners());
    lines.add(polled.runners().live().isEmpty() ? style.warning(runners) : runners);
    lines.add(TaskText.counts(byStatus(polled)));
    Table table = new Table("ID", "MACHINE", "STATE", "STATUS", "ATTEMPT", "DUE/UPDATED")
        .paint(3, word -> TaskText.status(style, word));
    int rows = global.env("LINES") == null ? 20 : Math.max(3, lines(global) - 4);
    for (Task t : tasks.subList(0, Math.min(rows, tasks.size()))) {
      table.add(t.id(), t.machine(), t.state(), polled.tasksShow().get(t.id()).word(),
          t.attempt(),
          TaskText.dueOrUpdated(t));
    }
    lines.addAll(table.lines(global.columns()));
    long selected = byStatus(polled).values().stream().mapToLong(Long::longValue).sum();
    int shown = Math.min(rows, tasks.size());
    if (selected > shown) {
      String note = rowsNote(polled, shown);
      lines.add("... and " + TaskText.tasks(selected - shown) + " more" + note
          + (note.isEmpty() ? "; " : ": ") + "narrow with --machine, --state or --status");
    }
    return lines;
  }

  /**
   * What the rows are, when some of them are not the store's known latest changes and more
   * tasks were selected than were read: the rest are only the latest among the first READ by id,
   * as finding them among all tasks would read every task at each refresh.
   */
  private static String rowsNote(Polled polled, int shown) {
    if (polled.known() >= shown || !polled.othersCut()) {
      return "";
    }
    String among = "the latest changes among the first " + TaskText.tasks(READ) + " by id";
    return polled.known() == 0 ? "; the rows above are " + among
        : "; the first " + (polled.known() == 1 ? "row is" : polled.known() + " rows are")
            + " the latest changes, those below " + among;
  }

  private Map<ShownStatus, Long> byStatus(Polled polled) {
    Map<ShownStatus, Long> by = new EnumMap<>(ShownStatus.class);
    for (TaskCount c : polled.counts()) {
      if (live.selects(c, polled.countsShow().get(c))) {
        by.merge(polled.countsShow().get(c), c.count(), Long::sum);
      }
    }
    return by;
  }

  private static int lines(GlobalOptions global) {
    try {
      return Integer.parseInt(global.env("LINES").strip());
    } catch (NumberFormatException e) {
      return 24;
    }
  }
}

package dev.fsm.cli.verb.task;

import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.LiveView;
import dev.fsm.cli.common.StopSignal;
import dev.fsm.cli.terminal.Style;
import dev.fsm.engine.ShownStatuses;
import dev.fsm.model.Durations;
import dev.fsm.operations.Operations;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import dev.fsm.task.Transition;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code fsm tail}: transitions and commands printed as they happen, like tail -f. */
@Command(
    name = "tail",
    mixinStandardHelpOptions = true,
    header = "Print transitions as they happen.",
    description = {
        "One line per move between states and per operator's command, from now on, until"
            + " Ctrl-C; with --output json, one JSON object a line. Filters apply to the task"
            + " as it is after the change.",
        "",
        "It polls every --interval: each poll lists the tasks the filters select and reads"
            + " the history of those that changed, so its cost grows with the tasks selected."
            + " When the runner stops or is killed it carries on with the next one, or the store"
            + " itself, and says so once on stderr."},
    footer = {
      "fsm tail --machine order",
      "fsm tail --status fault --output json"
    })
public final class Tail implements Callable<Integer>, LiveView {

  private static final int PAGE = 1000;

  @Mixin LiveOptions live;

  @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "500ms",
      converter = LiveOptions.Interval.class,
      description = "Time between polls (default: ${DEFAULT-VALUE}, at least 100ms).")
  Duration interval;

  @Spec CommandSpec spec;

  /** What was seen of each task: its last snapshot, and how much of its history is printed. */
  private record Seen(Task task, int printed) {}

  @Override
  public void stopOn(StopSignal stop) {
    live.stop = stop;
  }

  @Override
  public Integer call() {
    GlobalOptions global = GlobalOptions.of(spec);
    PrintWriter out = spec.commandLine().getOut();
    Style style = Style.forTerminal(global.colorAllowed());
    Instant since = Instant.now();
    Map<String, Seen> seen = new HashMap<>();
    boolean first = true;
    PrintWriter err = spec.commandLine().getErr();
    LiveAccess access = new LiveAccess(global, "fsm tail", err, live.stop);
    Instant previousPoll = since;
    do {
      boolean firstPoll = first;
      // A task that comes into the selection came in since the poll before: its transitions
      // from then on are new (a second's slack for the clock of the process that wrote them).
      Instant cameIn = max(since, previousPoll.minusSeconds(1));
      previousPoll = Instant.now();
      // Safe to repeat after a lost runner: `seen` moves on only past printed transitions.
      Optional<Boolean> polled = access.poll(control -> {
        if (firstPoll) {
          live.requireKnown(control);
        }
        poll(control, seen, firstPoll, since, cameIn, global, style, out);
        return true;
      });
      if (polled.isEmpty()) {
        break;
      }
      if (first) {
        // Says when following starts: transitions from then on are printed.
        err.println("fsm tail: following " + seen.size() + " task(s), every "
            + Durations.format(interval) + "; Ctrl-C to stop");
        err.flush();
      }
      first = false;
      out.flush();
    } while (!live.stop.await(interval));
    return ExitCodes.OK;
  }

  /**
   * One look at the selected tasks: prints the transitions of each that changed, those after
   * what was printed of it before; of a task first seen here, those from {@code since} (the
   * tasks there at the start) or from {@code cameIn} (a task that came into the selection
   * since the poll before: its older history was made while it was not selected).
   */
  private void poll(Operations control, Map<String, Seen> seen, boolean first, Instant since,
      Instant cameIn, GlobalOptions global, Style style, PrintWriter out) {
    Optional<String> after = Optional.empty();
    ShownStatuses shown = new ShownStatuses(control::versions);
    while (true) {
      TaskQuery query = live.query(PAGE);
      List<Task> page = control.list(after.map(query::after).orElse(query), false);
      for (Task t : page) {
        Seen before = seen.get(t.id());
        if (first) {
          // Tasks already here count from now; their history is read when they next change.
          seen.put(t.id(), new Seen(t, -1));
        } else if (before == null || !before.task().equals(t)) {
          List<Transition> history = control.history(t.id());
          int from = before == null ? -1 : before.printed();
          Instant fromTime = before == null ? cameIn : since;
          for (int i = 0; i < history.size(); i++) {
            Transition e = history.get(i);
            if (from < 0 ? !e.time().isBefore(fromTime) : i >= from) {
              print(t, shown.of(t), e, global, style, out);
            }
          }
          seen.put(t.id(), new Seen(t, history.size()));
        }
      }
      if (page.size() < PAGE) {
        return;
      }
      after = Optional.of(page.get(page.size() - 1).id());
    }
  }

  private static Instant max(Instant a, Instant b) {
    return a.isAfter(b) ? a : b;
  }

  private static void print(Task t, ShownStatus status, Transition e, GlobalOptions global,
      Style style, PrintWriter out) {
    if (global.json()) {
      JsonDocument.line(out, g -> TaskJson.tailEntry(g, t, e));
      return;
    }
    String move = e.from().equals(e.to()) ? e.from() + " (" + style.bold(e.event()) + ")"
        : e.from() + " -" + style.bold(e.event()) + "-> " + e.to();
    String took = e.durationMillis() == 0 ? ""
        : "  " + TaskText.duration(Duration.ofMillis(e.durationMillis()));
    out.println(TaskText.time(e.time()) + "  " + t.id() + "  " + t.machine() + "  " + move
        + "  " + TaskText.status(style, status.word()) + took + "  " + e.by()
        + (e.reason().isEmpty() ? "" : "  " + e.reason()));
  }
}

package dev.fsm.cli.verb.task;

import dev.fsm.cli.terminal.Table;
import dev.fsm.task.Command;
import dev.fsm.task.Transition;
import java.time.Duration;
import java.util.List;

/** A task's history as a text table, shared by {@code fsm history} and {@code fsm show}. */
final class HistoryTable {

  private HistoryTable() {}

  /** The history, oldest first, one row per entry. */
  static Table of(List<Transition> history) {
    Table table = new Table("TIME", "FROM", "EVENT", "TO", "DURATION", "ATTEMPT", "BY",
        "REASON");
    for (Transition e : history) {
      // Operators' commands have no duration; a blank reads better than 0s. Only a redrive
      // (--to) moves a command's entry between states.
      boolean command = e.from().equals(e.to())
          || Command.parse(e.event()).filter(Command::takesTo).isPresent();
      String duration = e.durationMillis() == 0 && command ? ""
          : TaskText.duration(Duration.ofMillis(e.durationMillis()));
      table.add(TaskText.time(e.time()), e.from(), e.event(), e.to(), duration, e.attempt(),
          e.by(), e.reason());
    }
    return table;
  }
}

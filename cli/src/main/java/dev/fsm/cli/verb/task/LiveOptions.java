package dev.fsm.cli.verb.task;

import dev.fsm.cli.common.StopSignal;
import dev.fsm.model.Durations;
import dev.fsm.operations.Operations;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.ShownStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** The filters and pace shared by the live views, {@code watch} and {@code tail}. */
final class LiveOptions {

  /** Fastest refresh: each one opens the store or asks the runner, so faster costs the runner. */
  static final Duration FASTEST = Duration.ofMillis(100);

  @Option(names = "--machine", paramLabel = "M", description = "Only tasks of machine M.")
  String machine;

  @Option(names = "--state", paramLabel = "S", description = "Only tasks in state S.")
  String state;

  @Option(names = "--status", paramLabel = "X", converter = Words.ShownStatusConverter.class,
      description = "Only tasks with status X (waiting among them); repeat for any of several.")
  List<ShownStatus> statuses = new ArrayList<>();

  StopSignal stop = new StopSignal();

  /** The tasks these filters select, {@code limit} at a time. */
  TaskQuery query(int limit) {
    return new TaskQuery(Optional.ofNullable(machine), Optional.ofNullable(state),
        Set.copyOf(statuses), Optional.empty(), limit, TaskQuery.Order.ASCENDING,
        TaskQuery.Sort.ID);
  }

  /**
   * Refuses a machine or state the store does not know, so a typo is not an empty view.
   *
   * @throws dev.fsm.FsmException naming it, with the closest known name
   */
  void requireKnown(Operations control) {
    if (machine != null) {
      KnownMachine.require(control, machine);
    }
    if (state != null) {
      KnownState.require(control, machine, state);
    }
  }

  /** True when a count of tasks showing {@code shown} passes the filters. */
  boolean selects(TaskCount c, ShownStatus shown) {
    return (machine == null || c.machine().equals(machine))
        && (state == null || c.state().equals(state))
        && (statuses.isEmpty() || statuses.contains(shown));
  }

  /** Reads {@code --interval} as a duration such as {@code 500ms} or {@code 2s}. */
  static final class Interval implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      Duration d;
      try {
        d = Durations.parse(value);
      } catch (RuntimeException e) {
        throw new TypeConversionException("`" + value + "` is not a duration; try 500ms or 2s");
      }
      if (d.compareTo(FASTEST) < 0) {
        throw new TypeConversionException("an interval of " + value + " is too short; the"
            + " shortest is 100ms");
      }
      return d;
    }
  }
}

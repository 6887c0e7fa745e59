package dev.fsm.control.wire;

import dev.fsm.operations.MachineSource;
import dev.fsm.operations.NewTask;
import dev.fsm.operations.TaskSelector;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Command;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.TaskStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every request argument. A name means the same value in every operation that takes it, so a
 * request's fields are read before its operation is known, in any order.
 */
final class Args {

  static final Arg<String> ID = new Arg<>("id", Scalars.STRING, null);
  static final Arg<Command> COMMAND = new Arg<>("command", Scalars.COMMAND, null);
  static final Arg<Instant> UNTIL = new Arg<>("until", Scalars.INSTANT, null);
  static final Arg<String> REASON = new Arg<>("reason", Scalars.STRING, null);
  static final Arg<String> TO = new Arg<>("to", Scalars.STRING, null);
  static final Arg<Boolean> DRY_RUN = new Arg<>("dryRun", Scalars.BOOLEAN, false);
  static final Arg<Boolean> AFTER_STEP = new Arg<>("afterStep", Scalars.BOOLEAN, false);
  static final Arg<String> TYPED = new Arg<>("typed", Scalars.STRING, null);
  static final Arg<TaskSelector> SELECTOR = new Arg<>("selector", TaskSelectorCodec.SELECTOR,
      null);
  static final Arg<String> EVENT = new Arg<>("event", Scalars.STRING, null);
  static final Arg<String> CONTEXT = new Arg<>("context", Scalars.STRING, null);
  static final Arg<TaskQuery> QUERY = new Arg<>("query", TaskQueryCodec.QUERY, null);
  static final Arg<String> PREFIX = new Arg<>("prefix", Scalars.STRING, null);
  static final Arg<String> AFTER = new Arg<>("after", Scalars.STRING, null);
  static final Arg<Boolean> CONTEXTS = new Arg<>("contexts", Scalars.BOOLEAN, true);
  static final Arg<List<String>> IDS = new Arg<>("ids", Scalars.STRINGS, List.of());
  static final Arg<String> DEFINITION = new Arg<>("definition", Scalars.STRING, null);
  static final Arg<Instant> REGISTERED = new Arg<>("registered", Scalars.INSTANT, null);
  static final Arg<List<TaskHistory>> TASK_HISTORIES = new Arg<>("taskHistories",
      TaskHistoryCodec.LIST, List.of());
  static final Arg<Integer> LIMIT = new Arg<>("limit", Scalars.INT, 0);
  static final Arg<String> MACHINE = new Arg<>("machine", Scalars.STRING, null);
  static final Arg<MachineSource> SOURCE = new Arg<>("source", MachineSourceCodec.SOURCE, null);
  static final Arg<List<NewTask>> TASKS = new Arg<>("tasks", NewTaskCodec.LIST, List.of());
  static final Arg<List<TaskStatus>> STATUSES = new Arg<>("statuses",
      Codec.list(Scalars.STATUS), List.of());
  static final Arg<Duration> OLDER_THAN = new Arg<>("olderThan", Scalars.DURATION, null);
  static final Arg<Instant> SINCE = new Arg<>("since", Scalars.INSTANT, null);
  static final Arg<String> STATE = new Arg<>("state", Scalars.STRING, null);

  private static final Map<String, Arg<?>> BY_NAME = index(ID, COMMAND, UNTIL, REASON, TO,
      DRY_RUN, AFTER_STEP, TYPED, SELECTOR, EVENT, CONTEXT, QUERY, PREFIX, AFTER, LIMIT, MACHINE,
      SOURCE, TASKS, STATUSES, OLDER_THAN, SINCE, STATE, IDS, DEFINITION, REGISTERED,
      TASK_HISTORIES, CONTEXTS);

  private Args() {}

  /** The argument of this name, or null for a field this build does not know. */
  static Arg<?> named(String name) {
    return BY_NAME.get(name);
  }

  private static Map<String, Arg<?>> index(Arg<?>... args) {
    Map<String, Arg<?>> byName = new HashMap<>();
    for (Arg<?> arg : args) {
      if (byName.put(arg.name(), arg) != null) {
        throw new IllegalStateException("two request arguments are called " + arg.name());
      }
    }
    return byName;
  }
}

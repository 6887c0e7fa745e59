package dev.fsm.operations;

import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Which tasks a bulk {@code fsm send} reaches: a machine, optionally narrowed to a state and to
 * any of some statuses (empty: any).
 */
public record TaskSelector(String machine, Optional<String> state, Set<ShownStatus> statuses) {

  public TaskSelector {
    statuses = statuses.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(statuses));
  }

  /** True when task {@code t}, showing {@code shown}, is one this selector reaches. */
  public boolean selects(Task t, ShownStatus shown) {
    return t.machine().equals(machine) && state.map(t.state()::equals).orElse(true)
        && (statuses.isEmpty() || statuses.contains(shown));
  }
}

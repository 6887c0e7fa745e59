package dev.fsm.store;

import dev.fsm.task.AttemptErrors;
import dev.fsm.task.Transition;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Which attempt errors ({@link AttemptErrors}) to read: those recorded at or after
 * {@code since}, of tasks of {@code machine} and in state {@code state} (the entry's {@code
 * from}), each filter optional.
 */
public record ErrorQuery(Instant since, Optional<String> machine, Optional<String> state) {

  public ErrorQuery {
    Objects.requireNonNull(since, "since");
    Objects.requireNonNull(machine, "machine");
    Objects.requireNonNull(state, "state");
  }

  /** True when an entry of a task of {@code taskMachine} passes the query. */
  public boolean matches(String taskMachine, Transition entry) {
    return machine.map(taskMachine::equals).orElse(true) && matches(entry);
  }

  /** True when an entry passes the query, whatever its task's machine. */
  public boolean matches(Transition entry) {
    return !entry.time().isBefore(since) && state.map(entry.from()::equals).orElse(true)
        && AttemptErrors.isError(entry);
  }
}

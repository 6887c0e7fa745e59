package dev.fsm.operations;

import dev.fsm.task.TaskStatus;
import java.util.Optional;

/** Which tasks a bulk {@code fsm send} reaches: a machine, optionally narrowed. */
public record TaskSelector(String machine, Optional<String> state, Optional<TaskStatus> status) {}

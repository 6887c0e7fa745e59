package dev.fsm.store;

import dev.fsm.task.TaskStatus;

/** How many tasks of a machine sit in a state with a status. */
public record TaskCount(String machine, String state, TaskStatus status, long count) {}

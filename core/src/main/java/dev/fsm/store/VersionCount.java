package dev.fsm.store;

import dev.fsm.task.TaskStatus;

/** How many tasks of a machine version sit in a state with a status. */
public record VersionCount(String machine, String version, String state, TaskStatus status,
    long count) {}

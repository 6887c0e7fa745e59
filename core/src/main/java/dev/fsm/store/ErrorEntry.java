package dev.fsm.store;

import dev.fsm.task.Transition;

/**
 * One attempt error as a store reads it from a history: the task, its machine, and the history
 * entry (its {@code from} is the state whose attempt failed, its {@code reason} the message).
 */
public record ErrorEntry(String taskId, String machine, Transition entry) {}

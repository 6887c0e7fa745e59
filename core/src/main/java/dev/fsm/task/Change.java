package dev.fsm.task;

/** A task's next snapshot and the history entry that explains it, recorded together. */
public record Change(Task next, Transition entry) {}

package dev.fsm.task;

import java.time.Instant;

/** One recorded error of a task: when, and what went wrong. */
public record TaskError(Instant time, String message) {}

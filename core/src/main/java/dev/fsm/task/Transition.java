package dev.fsm.task;

import java.time.Instant;

/**
 * One entry of a task's history: a move between machine states, or an operator's command.
 *
 * @param time when it was recorded
 * @param from the state before
 * @param event the event that fired, or the command sent (e.g. {@code pause})
 * @param to the state after
 * @param durationMillis how long the attempt that ended here ran; 0 for commands
 * @param attempt the attempt number in {@code from}
 * @param by who caused it: a runner and worker, or an operator
 * @param reason an operator's {@code --reason}, or an error message; empty when none
 */
public record Transition(
    Instant time,
    String from,
    String event,
    String to,
    long durationMillis,
    int attempt,
    String by,
    String reason) {}

package dev.fsm.engine;

import java.time.Instant;

/**
 * One line of {@code fsm errors}: the attempt errors of one state of a machine whose messages
 * are the same once masked ({@link ErrorMasks}).
 *
 * @param pattern the message with its variable parts masked
 * @param machine the tasks' machine
 * @param state the state whose attempts failed
 * @param count how many attempts ended in this error
 * @param tasks how many distinct tasks they were attempts of
 * @param firstSeen the oldest of them
 * @param lastSeen the newest of them
 * @param example the newest one's message, unmasked
 * @param exampleTask the task of that newest one
 */
public record ErrorGroup(
    String pattern,
    String machine,
    String state,
    long count,
    long tasks,
    Instant firstSeen,
    Instant lastSeen,
    String example,
    String exampleTask) {}

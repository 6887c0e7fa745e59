package dev.fsm.task;

import java.time.Instant;

/**
 * A pause asked for with {@code pause --after-step} while the task's action runs: kept with the
 * task until the step ends, then the task is paused (see {@link AfterStep}).
 *
 * @param at when it was asked
 * @param by who asked, for the history
 * @param reason their {@code --reason}, or empty
 */
public record Pausing(Instant at, String by, String reason) {}

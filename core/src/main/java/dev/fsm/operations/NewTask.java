package dev.fsm.operations;

import java.time.Instant;

/**
 * A task to start.
 *
 * @param id the id the user gave, or null to generate one (sortable by creation time)
 * @param context the task's JSON object as text, or null for {@code {}}
 * @param at when it may first run, or null for now
 */
public record NewTask(String id, String context, Instant at) {}

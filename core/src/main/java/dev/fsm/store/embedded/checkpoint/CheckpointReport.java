package dev.fsm.store.embedded.checkpoint;

/**
 * What a checkpoint did.
 *
 * @param lastSequence the journal record the snapshot covers; a rebuild replays from the next
 * @param records records in the snapshot: machine versions and tasks
 * @param bytes the snapshot's size
 * @param millis how long it took, writers running meanwhile
 */
public record CheckpointReport(long lastSequence, long records, long bytes, long millis) {}

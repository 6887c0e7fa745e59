package dev.fsm.store.embedded.event;

import java.util.List;

/**
 * A snapshot record as a rebuild reads it: a task packed as the index keeps it, which the
 * rebuild stores as it is, or any other event.
 */
public sealed interface SnapshotRecord {

  /**
   * A task packed ({@link PackedTask}) and its history, each entry as {@link TransitionCodec}
   * encodes it.
   */
  record Packed(String id, byte[] task, List<byte[]> history) implements SnapshotRecord {}

  /** Any other record: a machine version, or a task written whole by an earlier fsm. */
  record Event(StoreEvent event) implements SnapshotRecord {}
}

package dev.fsm.store.embedded.journal;

/** Receives journal records in sequence order during a replay. */
@FunctionalInterface
public interface RecordConsumer {

  /** Takes one record; the array is the consumer's to keep. */
  void accept(long sequence, byte[] record);
}

package dev.fsm.store.embedded.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.store.embedded.journal.Journal;
import dev.fsm.store.embedded.journal.JournalOptions;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StoreGateTest {

  @TempDir Path dir;

  @Test
  void aReadInsideAnotherLeavesTheIndexToTheOuterOne() throws Exception {
    try (Journal journal = Journal.open(dir.resolve("journal"), JournalOptions.defaults());
        TaskIndex index = TaskIndex.create(dir.resolve("index.db"))) {
      StoreGate gate = new StoreGate(dir, journal, index, new Leases());
      try {
        boolean[] heldAfterInner = new boolean[1];
        gate.locked(() -> {
          // As an update whose function reads a task's history through the store.
          gate.locked(() -> gate.index().size());
          heldAfterInner[0] = gate.holdsIndex();
          return null;
        });
        assertThat(heldAfterInner[0]).as("the outer read still holds the index").isTrue();
        assertThat(gate.holdsIndex()).as("the index is let go at the end").isFalse();
      } finally {
        gate.close();
      }
    }
  }
}

package dev.fsm.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.store.TaskQuery;
import dev.fsm.store.embedded.journal.Journal;
import dev.fsm.store.embedded.journal.JournalDamagedException;
import dev.fsm.store.embedded.recovery.CleanMarker;
import dev.fsm.store.embedded.repair.RepairReport;
import dev.fsm.store.embedded.repair.RepairReport.Range;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After a crash there is no clean close to vouch for the journal's end; its own note of how far
 * it got does. A journal that lost records from its end, at a record boundary, is refused, and
 * {@code store repair} names what was lost.
 */
class JournalCutAfterCrashTest {

  private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

  @TempDir Path dir;

  private Path store;

  /** Records 1 to 15 (see {@link StoreRepairTest#fill}), then a crash after the last note. */
  @BeforeEach
  void crashAfterFifteenRecords() throws IOException {
    store = dir.resolve("store");
    try (EmbeddedStore s = EmbeddedStore.open(store)) {
      StoreRepairTest.fill(s);
    }
    // What kill -9 after the journal's last note leaves: no clean close, the note at 15.
    Files.delete(store.resolve(CleanMarker.FILE));
    assertThat(Journal.noted(store.resolve(Journal.FOLDER))).hasValue(15);
  }

  @Test
  void aJournalCutAtARecordBoundaryIsRefusedThenRepairNamesTheLoss() throws IOException {
    Path segment = Workload.lastSegment(store);
    long at = StoreRepairTest.frames(segment).get(14L);
    try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
      f.setLength(at);
    }

    assertThatThrownBy(() -> EmbeddedStore.open(store))
        .isInstanceOf(JournalDamagedException.class)
        .hasMessageContaining("ends at byte " + at + " after record 13, but the journal had"
            + " made record 15 durable")
        .hasMessageContaining("records 14 to 15 were acknowledged and are not there");
    assertThatThrownBy(() -> EmbeddedReader.open(store, EmbeddedStoreOptions.defaults()))
        .isInstanceOf(JournalDamagedException.class);
    assertThat(Files.size(segment)).isEqualTo(at);

    RepairReport r = StoreRepair.run(store, EmbeddedStoreOptions.defaults(), NOW);
    assertThat(r.missingRecords()).containsExactly(new Range(14, 15));
    assertThat(r.lostRecords()).containsExactly(new Range(14, 15));
    assertThat(r.nothingLost()).isFalse();
    assertThat(r.lines()).contains("  lost: journal records 14 to 15");

    try (EmbeddedStore s = EmbeddedStore.open(store)) {
      assertThat(s.list(TaskQuery.all(100))).hasSize(10);
      assertThat(s.get("t-05").orElseThrow().status().word()).isEqualTo("runnable");
    }
    assertThat(Journal.noted(store.resolve(Journal.FOLDER))).as("a repaired journal's own note")
        .hasValue(15);
  }

  @Test
  void aDeletedLastSegmentIsRefused() throws IOException {
    try (EmbeddedStore s = EmbeddedStore.open(store)) {
      s.checkpoint();
    }
    Files.delete(store.resolve(CleanMarker.FILE));
    Path segment = Workload.lastSegment(store);
    Files.delete(segment);

    assertThatThrownBy(() -> EmbeddedStore.open(store))
        .isInstanceOf(JournalDamagedException.class)
        .hasMessageContaining("but the journal had made record");
  }

  @Test
  void aTornTailBeyondTheNoteIsCutAsAfterAnyCrash() throws IOException {
    Path segment = Workload.lastSegment(store);
    try (RandomAccessFile f = new RandomAccessFile(segment.toFile(), "rw")) {
      f.seek(f.length());
      f.write(new byte[] {0, 0, 0, 40, 1, 2, 3});
    }

    try (EmbeddedStore s = EmbeddedStore.open(store)) {
      assertThat(s.list(TaskQuery.all(100))).hasSize(10);
      assertThat(s.get("t-04").orElseThrow().status().word()).isEqualTo("paused");
    }
  }

  @Test
  void aDamagedNoteIsRefusedThenRepairMakesTheStoreOpenAgain() throws IOException {
    Path note = store.resolve(Journal.FOLDER).resolve("reached");
    Files.write(note, "garbagegarbage!!".getBytes(java.nio.charset.StandardCharsets.US_ASCII));

    assertThatThrownBy(() -> EmbeddedStore.open(store))
        .isInstanceOf(JournalDamagedException.class)
        .hasMessageContaining("of how far it got is damaged");
    RepairReport r = StoreRepair.run(store, EmbeddedStoreOptions.defaults(), NOW);
    assertThat(r.lostRecords()).isEmpty();
    assertThat(r.damage()).singleElement().satisfies(d -> {
      assertThat(d.file()).isEqualTo(note);
      assertThat(d.reason()).isEqualTo("it does not start as a note does");
    });
    try (EmbeddedStore s = EmbeddedStore.open(store)) {
      assertThat(s.list(TaskQuery.all(100))).hasSize(10);
    }
    assertThat(Journal.noted(store.resolve(Journal.FOLDER))).hasValue(15);
  }
}

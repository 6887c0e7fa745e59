package dev.fsm.store.embedded.journal;

import static dev.fsm.store.embedded.journal.JournalFiles.frameOffsets;
import static dev.fsm.store.embedded.journal.JournalFiles.lastSegment;
import static dev.fsm.store.embedded.journal.JournalFiles.payload;
import static dev.fsm.store.embedded.journal.JournalFiles.segments;
import static dev.fsm.store.embedded.journal.JournalFiles.truncate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The journal's note of how far it got: a journal that ends, soundly, before a record it had
 * made durable lost acknowledged records, after a crash as well as after a clean close.
 */
class ReachedMarkTest {

  private static final JournalOptions SMALL = JournalOptions.defaults().segmentBytes(512);
  private static final int RECORDS = 30;

  @TempDir
  Path dir;

  private Path folder;

  @BeforeEach
  void writeJournal() throws IOException {
    folder = dir.resolve("journal");
    try (Journal j = Journal.open(folder, SMALL)) {
      for (int n = 1; n <= RECORDS; n++) {
        j.append(payload(n, 40)).join();
      }
    }
    assertThat(segments(folder)).hasSizeGreaterThanOrEqualTo(3);
  }

  @Test
  void aClosedJournalNotesItsLastRecord() throws IOException {
    assertThat(ReachedMark.read(folder)).hasValue(RECORDS);
  }

  @Test
  void theNoteFollowsDurableRecordsWhileTheJournalIsOpen() throws Exception {
    Path other = dir.resolve("other");
    Files.createDirectories(other);
    AtomicLong durable = new AtomicLong(7);
    try (ReachedMark mark = ReachedMark.start(other, 7,
        ReachedMark.note(other), durable::get, Duration.ofMillis(5))) {
      assertThat(ReachedMark.read(other)).hasValue(7);
      durable.set(12);
      awaitNote(other, 12);
      durable.set(5);
      mark.note();
      assertThat(ReachedMark.read(other)).as("a note never goes back").hasValue(12);
    }
  }

  @Test
  void aJournalCutAtARecordBoundaryBelowItsNoteIsRefusedAndLeftAsItIs() throws IOException {
    Path last = lastSegment(folder);
    List<Long> offsets = frameOffsets(last);
    long cutAt = offsets.get(offsets.size() - 1);
    truncate(last, cutAt);

    assertThatThrownBy(() -> Journal.open(folder, SMALL))
        .isInstanceOf(JournalDamagedException.class)
        .hasMessageContaining("ends at byte " + cutAt + " after record " + (RECORDS - 1))
        .hasMessageContaining("the journal had made record " + RECORDS + " durable")
        .hasMessageContaining("records " + RECORDS + " to " + RECORDS + " were acknowledged")
        .hasMessageContaining("fsm store repair");
    assertThatThrownBy(() -> Journal.soundEnd(folder, SMALL, 0, java.util.Optional.empty()))
        .isInstanceOf(JournalDamagedException.class);
    assertThat(Files.size(last)).isEqualTo(cutAt);
    assertThat(ReachedMark.read(folder)).hasValue(RECORDS);
  }

  @Test
  void aDeletedLastSegmentIsRefused() throws IOException {
    Path last = lastSegment(folder);
    long first = Segments.firstSequenceOf(last);
    Files.delete(last);

    assertThatThrownBy(() -> Journal.open(folder, SMALL))
        .isInstanceOf(JournalDamagedException.class)
        .hasMessageContaining("records " + first + " to " + RECORDS + " were acknowledged");
  }

  @Test
  void aJournalWithNoSegmentLeftIsRefused() throws IOException {
    for (Path s : segments(folder)) {
      Files.delete(s);
    }

    assertThatThrownBy(() -> Journal.open(folder, SMALL))
        .isInstanceOf(JournalDamagedException.class)
        .hasMessageContaining("holds no segment, but the journal had made record " + RECORDS);
    assertThat(segments(folder)).isEmpty();
  }

  @Test
  void aDamagedNoteIsRefusedAsDamageAndLeftAsItIs() throws IOException {
    Path note = folder.resolve(ReachedMark.FILE);
    byte[] bytes = Files.readAllBytes(note);
    bytes[6] ^= 0x10;
    Files.write(note, bytes);
    Path last = lastSegment(folder);
    List<Long> offsets = frameOffsets(last);
    truncate(last, offsets.get(offsets.size() - 1));

    assertThatThrownBy(() -> Journal.open(folder, SMALL))
        .isInstanceOf(JournalDamagedException.class)
        .hasMessageContaining("the journal's note " + note + " of how far it got is damaged"
            + " (CRC mismatch)")
        .hasMessageContaining("fsm store repair");
    assertThat(Files.readAllBytes(note)).isEqualTo(bytes);
    assertThat(ReachedMark.read(folder)).as("repair takes it as no evidence").isEmpty();
  }

  @Test
  void aNoteThatCannotBeWrittenKeepsNoJournalFromOpening() throws IOException {
    Files.delete(folder.resolve(ReachedMark.FILE));
    Files.createDirectory(folder.resolve(ReachedMark.FILE));

    try (Journal j = Journal.open(folder, SMALL)) {
      assertThat(j.append(payload(RECORDS + 1, 40)).join()).isEqualTo(RECORDS + 1);
    }
    assertThat(ReachedMark.read(folder)).isEmpty();
    try (Journal j = Journal.open(folder, SMALL)) {
      assertThat(j.lastSequence()).isEqualTo(RECORDS + 1);
    }
  }

  @Test
  void aShortNoteOrOneOfOtherBytesIsDamage() throws IOException {
    Files.write(folder.resolve(ReachedMark.FILE), new byte[] {'F', 'S', 'M'});
    assertThat(ReachedMark.read(folder)).isEqualTo(OptionalLong.empty());
    assertThatThrownBy(() -> ReachedMark.note(folder).checked())
        .hasMessageContaining("is damaged (3 of its 16 bytes)");
    Files.write(folder.resolve(ReachedMark.FILE), "garbagegarbage!!".getBytes());
    assertThatThrownBy(() -> ReachedMark.note(folder).checked())
        .hasMessageContaining("is damaged (it does not start as a note does)");
  }

  @Test
  void aNoteBehindACleanCloseLeavesTheCloseToVouch() throws IOException {
    Path note = folder.resolve(ReachedMark.FILE);
    Files.delete(note);
    Path last = lastSegment(folder);
    List<Long> offsets = frameOffsets(last);
    truncate(last, offsets.get(offsets.size() - 1));

    assertThatThrownBy(() -> Journal.open(folder, SMALL, RECORDS))
        .hasMessageContaining("but the store was closed cleanly at record " + RECORDS);
  }

  private static void awaitNote(Path folder, long sequence) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (ReachedMark.read(folder).orElse(-1) != sequence) {
      assertThat(System.nanoTime()).as("note of record %d", sequence).isLessThan(deadline);
      Thread.sleep(1);
    }
  }
}

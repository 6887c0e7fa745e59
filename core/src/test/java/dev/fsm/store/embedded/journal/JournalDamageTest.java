package dev.fsm.store.embedded.journal;

import static dev.fsm.store.embedded.journal.JournalFiles.copyFolder;
import static dev.fsm.store.embedded.journal.JournalFiles.flip;
import static dev.fsm.store.embedded.journal.JournalFiles.frameOffsets;
import static dev.fsm.store.embedded.journal.JournalFiles.lastSegment;
import static dev.fsm.store.embedded.journal.JournalFiles.payload;
import static dev.fsm.store.embedded.journal.JournalFiles.replay;
import static dev.fsm.store.embedded.journal.JournalFiles.segments;
import static dev.fsm.store.embedded.journal.JournalFiles.truncate;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.FsmException;
import dev.fsm.store.embedded.journal.JournalFiles.Entry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JournalDamageTest {

  private static final JournalOptions SMALL = JournalOptions.defaults().segmentBytes(512);
  private static final int RECORDS = 30;
  private static final int LENGTH = 40;

  @TempDir
  Path dir;

  private Path pristine;
  private int copies;

  @BeforeEach
  void writePristineJournal() throws IOException {
    pristine = dir.resolve("pristine");
    try (Journal j = Journal.open(pristine, SMALL)) {
      for (int n = 1; n <= RECORDS; n++) {
        j.append(payload(n, LENGTH)).join();
      }
    }
    assertThat(segments(pristine)).hasSizeGreaterThanOrEqualTo(3);
    assertThat(frameOffsets(lastSegment(pristine))).hasSizeGreaterThanOrEqualTo(2);
  }

  @Test
  void aTornTailIsCutAtEveryOffsetInsideTheLastTwoRecords() throws IOException {
    Path last = lastSegment(pristine);
    long firstInLast = Segments.firstSequenceOf(last);
    List<Long> offsets = frameOffsets(last);
    long size = Files.size(last);
    long secondLast = offsets.get(offsets.size() - 2);
    long lastFrame = offsets.get(offsets.size() - 1);
    for (long cutAt = secondLast; cutAt < size; cutAt++) {
      Path folder = copy();
      truncate(folder.resolve(last.getFileName()), cutAt);
      long frameStart = cutAt < lastFrame ? secondLast : lastFrame;
      long kept = firstInLast + offsets.indexOf(frameStart) - 1;
      try (Journal j = Journal.open(folder, SMALL)) {
        Recovery r = j.recovery();
        assertThat(j.lastSequence()).as("cut at %d", cutAt).isEqualTo(kept);
        assertThat(r.lastSequence()).isEqualTo(kept);
        if (cutAt == frameStart) {
          assertThat(r.clean()).as("cut at frame boundary %d", cutAt).isTrue();
        } else {
          Cut c = r.cut().orElseThrow();
          assertThat(c.file()).isEqualTo(folder.resolve(last.getFileName()));
          assertThat(c.offset()).isEqualTo(frameStart);
          assertThat(c.bytesCut()).isEqualTo(cutAt - frameStart);
          assertThat(c.reason()).contains("file ends inside a record");
          assertThat(r.summary()).contains("file ends inside a record").contains("kept records 1 to "
              + kept);
        }
        assertThat(Files.size(folder.resolve(last.getFileName()))).isEqualTo(frameStart);
        assertIntact(j, kept);
        assertThat(j.append(payload(kept + 1, 7)).join()).isEqualTo(kept + 1);
      }
      try (Journal j = Journal.open(folder, SMALL)) {
        assertThat(j.recovery().clean()).isTrue();
        assertThat(j.lastSequence()).isEqualTo(kept + 1);
        List<Entry> tail = replay(j, kept);
        assertThat(tail.get(tail.size() - 1).record()).isEqualTo(payload(kept + 1, 7));
        assertThat(j.append(payload(kept + 2, 7)).join()).isEqualTo(kept + 2);
      }
    }
  }

  @Test
  void aTornHeaderInTheLastSegmentIsRewrittenFromTheName() throws IOException {
    Path last = lastSegment(pristine);
    long first = Segments.firstSequenceOf(last);
    for (int cutAt = 0; cutAt < Segments.HEADER_BYTES; cutAt++) {
      Path folder = copy();
      truncate(folder.resolve(last.getFileName()), cutAt);
      try (Journal j = Journal.open(folder, SMALL)) {
        assertThat(j.lastSequence()).isEqualTo(first - 1);
        if (cutAt == 0) {
          assertThat(j.recovery().clean()).isTrue();
        } else {
          Cut c = j.recovery().cut().orElseThrow();
          assertThat(c.reason()).contains("file ends inside the segment header");
          assertThat(c.bytesCut()).isEqualTo(cutAt);
        }
        assertThat(j.append(payload(first, 3)).join()).isEqualTo(first);
      }
      try (Journal j = Journal.open(folder, SMALL)) {
        assertThat(j.recovery().clean()).isTrue();
        assertThat(j.lastSequence()).isEqualTo(first);
      }
    }
  }

  @Test
  void aByteFlipInTheLastRecordIsATornTailCutThereWithTheReason() throws IOException {
    Path last = lastSegment(pristine);
    List<Long> offsets = frameOffsets(last);
    long frame = offsets.get(offsets.size() - 1);
    long kept = RECORDS - 1;
    for (Map.Entry<String, Integer> field : fieldOffsets().entrySet()) {
      Path folder = copy();
      Path segment = folder.resolve(last.getFileName());
      flip(segment, frame + field.getValue(), 0x40);
      try (Journal j = Journal.open(folder, SMALL)) {
        Cut c = j.recovery().cut().orElseThrow();
        assertThat(c.offset()).as(field.getKey()).isEqualTo(frame);
        assertThat(c.bytesCut()).isEqualTo(Files.size(last) - frame);
        assertThat(c.reason()).as(field.getKey()).isEqualTo(field.getKey().equals("length")
            ? "record length " + (0x40000000 + LENGTH) + " is larger than the 2 MiB limit"
            : "CRC mismatch");
        assertThat(j.lastSequence()).isEqualTo(kept);
        assertIntact(j, kept);
        assertThat(j.append(payload(kept + 1, LENGTH)).join()).isEqualTo(kept + 1);
      }
    }
  }

  @Test
  void aByteFlipFollowedByASoundRecordIsDamageAndChangesNothing() throws IOException {
    Path last = lastSegment(pristine);
    List<Long> offsets = frameOffsets(last);
    long frame = offsets.get(offsets.size() - 2);
    long next = offsets.get(offsets.size() - 1);
    for (Map.Entry<String, Integer> field : fieldOffsets().entrySet()) {
      Path folder = copy();
      Path segment = folder.resolve(last.getFileName());
      flip(segment, frame + field.getValue(), 0x40);
      byte[] before = Files.readAllBytes(segment);
      assertThatThrownBy(() -> Journal.open(folder, SMALL)).as(field.getKey())
          .isInstanceOfSatisfying(JournalDamagedException.class, e -> {
            assertThat(e.file()).isEqualTo(segment);
            assertThat(e.offset()).isEqualTo(frame);
          })
          .hasMessage("journal segment " + segment + " is damaged at byte " + frame + " ("
              + (field.getKey().equals("length")
                  ? "record length " + (0x40000000 + LENGTH) + " is larger than the 2 MiB limit"
                  : "CRC mismatch")
              + "), and a sound later record, " + RECORDS + ", follows at byte " + next
              + ": this is not a torn tail, so fsm opened nothing and changed nothing. Run `fsm"
              + " store repair` to keep every record that can be proven and report exactly what"
              + " is lost, or restore the store folder from a backup.");
      assertThat(Files.readAllBytes(segment)).isEqualTo(before);
    }
  }

  @Test
  void aTornTailBelowACleanCloseIsDamage() throws IOException {
    Path folder = copy();
    Path segment = folder.resolve(lastSegment(pristine).getFileName());
    long frame = frameOffsets(segment).get(frameOffsets(segment).size() - 1);
    truncate(segment, frame + 3);
    assertThatThrownBy(() -> Journal.open(folder, SMALL, RECORDS))
        .isInstanceOfSatisfying(JournalDamagedException.class,
            e -> assertThat(e.offset()).isEqualTo(frame))
        .hasMessageContaining("journal segment " + segment + " is damaged at byte " + frame
            + " (file ends inside a record header (3 of 16 bytes)) after record " + (RECORDS - 1)
            + ", but the store was closed cleanly at record " + RECORDS + ": records " + RECORDS
            + " to " + RECORDS + " were acknowledged and are not there");
    assertThat(Files.size(segment)).isEqualTo(frame + 3);

    truncate(segment, frame);
    assertThatThrownBy(() -> Journal.open(folder, SMALL, RECORDS))
        .hasMessageContaining("ends at byte " + frame + " after record " + (RECORDS - 1));
    try (Journal j = Journal.open(folder, SMALL, RECORDS - 1)) {
      assertThat(j.recovery().clean()).isTrue();
    }
  }

  @Test
  void aZeroedTailIsTornButSoundRecordsAfterZerosAreNot() throws IOException {
    Path folder = copy();
    Path segment = folder.resolve(lastSegment(pristine).getFileName());
    List<Long> offsets = frameOffsets(segment);
    long frame = offsets.get(offsets.size() - 2);
    long next = offsets.get(offsets.size() - 1);
    try (var f = new java.io.RandomAccessFile(segment.toFile(), "rw")) {
      f.seek(frame);
      f.write(new byte[(int) (next - frame)]);
    }
    assertThatThrownBy(() -> Journal.open(folder, SMALL))
        .hasMessageContaining("(zero bytes where a record should start")
        .hasMessageContaining("a sound later record, " + RECORDS + ", follows at byte " + next);
  }

  private static Map<String, Integer> fieldOffsets() {
    Map<String, Integer> fieldOffsets = new HashMap<>();
    fieldOffsets.put("length", 0);
    fieldOffsets.put("crc", 5);
    fieldOffsets.put("sequence", 14);
    fieldOffsets.put("payload", Segments.FRAME_HEADER_BYTES + 9);
    return fieldOffsets;
  }

  @Test
  void aRepeatedFrameIsCaughtByItsSequence() throws IOException {
    Path folder = copy();
    Path last = folder.resolve(lastSegment(pristine).getFileName());
    byte[] bytes = Files.readAllBytes(last);
    long lastFrame = frameOffsets(last).get(frameOffsets(last).size() - 1);
    Files.write(last, java.util.Arrays.copyOfRange(bytes, (int) lastFrame, bytes.length),
        StandardOpenOption.APPEND);
    try (Journal j = Journal.open(folder, SMALL)) {
      assertThat(j.recovery().cut().orElseThrow().reason())
          .isEqualTo("record " + RECORDS + " where " + (RECORDS + 1) + " was expected");
      assertThat(j.lastSequence()).isEqualTo(RECORDS);
    }
  }

  @Test
  void zerosAfterTheLastRecordAreCut() throws IOException {
    Path folder = copy();
    Path last = folder.resolve(lastSegment(pristine).getFileName());
    long size = Files.size(last);
    Files.write(last, new byte[4096], StandardOpenOption.APPEND);
    try (Journal j = Journal.open(folder, SMALL)) {
      Cut c = j.recovery().cut().orElseThrow();
      assertThat(c.reason()).startsWith("zero bytes where a record should start");
      assertThat(c.offset()).isEqualTo(size);
      assertThat(c.bytesCut()).isEqualTo(4096);
      assertThat(j.lastSequence()).isEqualTo(RECORDS);
    }
  }

  @Test
  void damageInAnEarlierSegmentStopsOpeningWithAClearMessage() throws IOException {
    Path folder = copy();
    List<Path> files = segments(folder);
    Path damaged = files.get(0);
    long frame = frameOffsets(damaged).get(2);
    flip(damaged, frame + Segments.FRAME_HEADER_BYTES + 3, 0x01);
    long laterRecords = RECORDS - Segments.firstSequenceOf(files.get(1)) + 1;
    Map<Path, Long> sizes = new HashMap<>();
    for (Path f : files) {
      sizes.put(f, Files.size(f));
    }

    assertThatThrownBy(() -> Journal.open(folder, SMALL))
        .isInstanceOfSatisfying(JournalDamagedException.class, e -> {
          assertThat(e.file()).isEqualTo(damaged);
          assertThat(e.offset()).isEqualTo(frame);
          assertThat(e.reason()).isEqualTo("CRC mismatch");
        })
        .hasMessageContaining(damaged.toString())
        .hasMessageContaining("at byte " + frame + " (CRC mismatch)")
        .hasMessageContaining((files.size() - 1) + " later segments hold " + laterRecords
            + " records (" + Segments.firstSequenceOf(files.get(1)) + " to " + RECORDS + ")")
        .hasMessageContaining("fsm store repair");
    for (Path f : files) {
      assertThat(Files.size(f)).as("untouched %s", f).isEqualTo(sizes.get(f));
    }

    try (Journal j = Journal.open(folder, SMALL.acceptDamage(true))) {
      Recovery r = j.recovery();
      Cut c = r.cut().orElseThrow();
      assertThat(c.file()).isEqualTo(damaged);
      assertThat(c.offset()).isEqualTo(frame);
      assertThat(c.reason()).isEqualTo("CRC mismatch");
      assertThat(r.deletedSegments()).isEqualTo(files.subList(1, files.size()));
      assertThat(r.deletedRecords()).isEqualTo(laterRecords);
      assertThat(r.summary()).contains("deleted " + (files.size() - 1) + " later segments");
      assertThat(segments(folder)).containsExactly(damaged);
      assertThat(j.lastSequence()).isEqualTo(2);
      assertIntact(j, 2);
      assertThat(j.append(payload(3, 9)).join()).isEqualTo(3);
    }
    try (Journal j = Journal.open(folder, SMALL)) {
      assertThat(j.recovery().clean()).isTrue();
      assertThat(j.lastSequence()).isEqualTo(3);
    }
  }

  @Test
  void aMissingMiddleSegmentIsDamageToo() throws IOException {
    Path folder = copy();
    List<Path> files = segments(folder);
    Files.delete(files.get(1));
    long missingFrom = Segments.firstSequenceOf(files.get(1));
    long missingTo = Segments.firstSequenceOf(files.get(2)) - 1;
    assertThatThrownBy(() -> Journal.open(folder, SMALL))
        .isInstanceOf(JournalDamagedException.class)
        .hasMessageContaining(files.get(0).toString())
        .hasMessageContaining("records " + missingFrom + " to " + missingTo + " are missing")
        .hasMessageContaining("fsm store repair");
    try (Journal j = Journal.open(folder, SMALL.acceptDamage(true))) {
      assertThat(j.lastSequence()).isEqualTo(missingFrom - 1);
      assertThat(j.recovery().cut().orElseThrow().bytesCut()).isZero();
    }
  }

  @Test
  void aForeignOrNewerHeaderIsRefusedNamingTheFile() throws IOException {
    Path folder = copy();
    Path last = folder.resolve(lastSegment(pristine).getFileName());
    flip(last, 1, 0x20);
    assertThatThrownBy(() -> Journal.open(folder, SMALL)).isInstanceOf(FsmException.class)
        .hasMessageContaining(last.toString())
        .hasMessageContaining("is not an fsm journal segment");
    flip(last, 1, 0x20);
    flip(last, 4, 0x08);
    assertThatThrownBy(() -> Journal.open(folder, SMALL)).isInstanceOf(FsmException.class)
        .hasMessageContaining(last.toString())
        .hasMessageContaining("journal format 9");
    flip(last, 4, 0x08);

    Path first = segments(folder).get(0);
    flip(first, 12, 0x02);
    assertThatThrownBy(() -> Journal.open(folder, SMALL.acceptDamage(true)))
        .isInstanceOf(FsmException.class)
        .hasMessageContaining(first.toString())
        .hasMessageContaining("its name says 1");
    flip(first, 12, 0x02);
    try (Journal j = Journal.open(folder, SMALL)) {
      assertThat(j.recovery().clean()).isTrue();
    }
  }

  @Test
  void aZeroedHeaderInTheLastSegmentIsATornRoll() throws IOException {
    Path folder = copy();
    Path last = folder.resolve(lastSegment(pristine).getFileName());
    long first = Segments.firstSequenceOf(last);
    Files.write(last, new byte[Segments.HEADER_BYTES + 100]);
    try (Journal j = Journal.open(folder, SMALL)) {
      assertThat(j.recovery().cut().orElseThrow().reason()).contains("zero bytes");
      assertThat(j.lastSequence()).isEqualTo(first - 1);
    }
  }

  @Test
  void replayNoticesDamageDoneAfterOpening() throws IOException {
    Path folder = copy();
    try (Journal j = Journal.open(folder, SMALL)) {
      Path first = segments(folder).get(0);
      flip(first, frameOffsets(first).get(1) + Segments.FRAME_HEADER_BYTES, 0x10);
      assertThatThrownBy(() -> replay(j, 1)).isInstanceOf(JournalDamagedException.class)
          .hasMessageContaining(first.toString())
          .hasMessageContaining("CRC mismatch")
          .hasMessageContaining("sound when the journal was opened");
    }
  }

  /**
   * The pristine journal as a crash before its first note of how far it got would leave it: a
   * torn tail is of records that were not durable yet, so no note can have named them.
   */
  private Path copy() throws IOException {
    Path to = copyWithNote();
    Files.delete(to.resolve(ReachedMark.FILE));
    return to;
  }

  private Path copyWithNote() throws IOException {
    Path to = dir.resolve("copy" + copies++);
    copyFolder(pristine, to);
    return to;
  }

  private static void assertIntact(Journal j, long last) throws IOException {
    List<Entry> all = replay(j, 1);
    assertThat(all).hasSize((int) last);
    for (Entry e : all) {
      assertThat(e.record()).isEqualTo(payload(e.sequence(), LENGTH));
    }
  }
}

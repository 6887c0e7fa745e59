package dev.fsm.store.embedded.journal;

import static dev.fsm.store.embedded.journal.JournalFiles.flip;
import static dev.fsm.store.embedded.journal.JournalFiles.payload;
import static dev.fsm.store.embedded.journal.JournalFiles.segments;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A seal holds exactly while every segment file is byte for byte as it was sealed. */
class JournalSealTest {

  private static final JournalOptions SMALL = JournalOptions.defaults().segmentBytes(512);

  @TempDir Path dir;

  private Path folder;
  private JournalSeal seal;

  @BeforeEach
  void sealAClosedJournal() throws IOException {
    folder = dir.resolve("journal");
    try (Journal j = Journal.open(folder, SMALL)) {
      for (int n = 1; n <= 30; n++) {
        j.append(payload(n, 40)).join();
      }
    }
    seal = JournalSeal.of(folder);
    assertThat(seal.segments()).hasSizeGreaterThanOrEqualTo(3);
  }

  @Test
  void anUntouchedJournalHoldsItsSealAndAnEmptyOneHoldsNone() throws IOException {
    assertThat(seal.holds(folder)).isTrue();
    assertThat(new JournalSeal(List.of()).holds(folder)).isFalse();
  }

  @Test
  void oneFlippedBitInAnySegmentBreaksTheSeal() throws IOException {
    for (Path segment : segments(folder)) {
      long middle = Files.size(segment) / 2;
      flip(segment, middle, 0x01);
      assertThat(seal.holds(folder)).as(segment.toString()).isFalse();
      flip(segment, middle, 0x01);
      assertThat(seal.holds(folder)).isTrue();
    }
  }

  @Test
  void anAppendedDeletedAddedOrRenamedSegmentBreaksTheSeal() throws IOException {
    List<Path> files = segments(folder);
    Path last = files.get(files.size() - 1);
    byte[] lastBytes = Files.readAllBytes(last);
    Files.write(last, new byte[] {0}, StandardOpenOption.APPEND);
    assertThat(seal.holds(folder)).as("a byte appended").isFalse();
    Files.write(last, lastBytes);
    assertThat(seal.holds(folder)).isTrue();

    Path first = files.get(0);
    Path aside = dir.resolve("aside");
    Files.move(first, aside);
    assertThat(seal.holds(folder)).as("a segment missing").isFalse();
    Files.move(aside, first);

    Path extra = folder.resolve(Segments.fileName(1_000));
    Files.write(extra, Segments.header(1_000).array());
    assertThat(seal.holds(folder)).as("a segment added").isFalse();
    Files.delete(extra);

    Path renamed = folder.resolve(Segments.fileName(Segments.firstSequenceOf(last) + 1));
    Files.move(last, renamed);
    assertThat(seal.holds(folder)).as("a segment renamed").isFalse();
    Files.move(renamed, last);
    assertThat(seal.holds(folder)).isTrue();
  }

  @Test
  void aJournalOpenedByItsSealAppendsWhereItEndedAndReplaysEveryRecord() throws IOException {
    try (Journal j = Journal.open(folder, SMALL, 30, Optional.of(seal))) {
      assertThat(j.recovery().clean()).isTrue();
      assertThat(j.recovery().lastSequence()).isEqualTo(30);
      assertThat(j.recovery().segments()).isEqualTo(seal.segments().size());
      assertThat(j.lastSequence()).isEqualTo(30);
      assertThat(j.append(payload(31, 40)).join()).isEqualTo(31);
    }
    try (Journal j = Journal.open(folder, SMALL)) {
      List<JournalFiles.Entry> all = JournalFiles.replay(j, 1);
      assertThat(all).hasSize(31);
      for (JournalFiles.Entry e : all) {
        assertThat(e.record()).isEqualTo(payload(e.sequence(), 40));
      }
    }
    assertThat(seal.holds(folder)).as("the append broke the old seal").isFalse();
  }

  @Test
  void aJournalSealsItselfAtCloseReadingOnlyWhatItWrote() throws IOException {
    List<Path> before = segments(folder);
    Path untouched = before.get(0);
    try (Journal j = Journal.open(folder, SMALL, 30, Optional.of(seal))) {
      assertThatThrownBy(j::seal).isInstanceOf(IllegalStateException.class);
      // Changed on disk after the open vouched for it: the new seal must not vouch for it.
      flip(untouched, Files.size(untouched) - 2, 0x08);
      for (int n = 31; n <= 45; n++) {
        j.append(payload(n, 40)).join();
      }
      j.close();
      JournalSeal resealed = j.seal();
      assertThat(resealed.segments()).hasSizeGreaterThan(seal.segments().size());
      assertThat(resealed.segments().get(0)).as("carried over").isEqualTo(seal.segments().get(0));
      assertThat(resealed.holds(folder)).as("the changed segment breaks it").isFalse();
      flip(untouched, Files.size(untouched) - 2, 0x08);
      assertThat(resealed.holds(folder)).isTrue();
      assertThat(resealed).isEqualTo(JournalSeal.of(folder));
    }
  }

  @Test
  void aBrokenSealMeansEveryFrameIsCheckedAndDamageIsRefused() throws IOException {
    Path first = segments(folder).get(0);
    flip(first, Files.size(first) - 2, 0x08);
    assertThatThrownBy(() -> Journal.open(folder, SMALL, 30, Optional.of(seal)))
        .isInstanceOf(JournalDamagedException.class)
        .hasMessageContaining(first.getFileName().toString());
    assertThatThrownBy(() -> Journal.soundEnd(folder, SMALL, 30, Optional.of(seal)))
        .isInstanceOf(JournalDamagedException.class);
    flip(first, Files.size(first) - 2, 0x08);
    assertThat(Journal.soundEnd(folder, SMALL, 30, Optional.of(seal))).hasValue(30);

    JournalSeal ahead = new JournalSeal(List.of(new JournalSeal.Segment(40, 13, 0)));
    assertThat(Journal.soundEnd(folder, SMALL, 30, Optional.of(ahead))).as("decoded").hasValue(30);
  }

  @Test
  void aSegmentLineReadsBackAndGarbageIsRefused() {
    for (JournalSeal.Segment s : seal.segments()) {
      assertThat(JournalSeal.Segment.parse(s.text())).contains(s);
    }
    JournalSeal.Segment high = new JournalSeal.Segment(7, 123, 0xfedcba98);
    assertThat(high.text()).isEqualTo("7 123 fedcba98");
    assertThat(JournalSeal.Segment.parse(high.text())).contains(high);
    assertThat(new JournalSeal.Segment(1, 0, 0x1a).text()).isEqualTo("1 0 0000001a");
    assertThat(new JournalSeal.Segment(1, 0, 0).text()).isEqualTo("1 0 00000000");
    for (String garbage : List.of("", "7 123", "7 123 zz", "0 1 00", "7 -1 00", "a b c",
        "7 123 fedcba98 9")) {
      assertThat(JournalSeal.Segment.parse(garbage)).as(garbage).isEqualTo(Optional.empty());
    }
  }
}

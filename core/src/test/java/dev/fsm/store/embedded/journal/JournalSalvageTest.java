package dev.fsm.store.embedded.journal;

import static dev.fsm.store.embedded.journal.JournalFiles.flip;
import static dev.fsm.store.embedded.journal.JournalFiles.frameOffsets;
import static dev.fsm.store.embedded.journal.JournalFiles.payload;
import static dev.fsm.store.embedded.journal.JournalFiles.segments;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Salvage reads every sound record around damage anywhere, and names each damaged stretch. */
class JournalSalvageTest {

  private static final JournalOptions SMALL = JournalOptions.defaults().segmentBytes(512);

  @TempDir Path dir;

  private final TreeMap<Long, byte[]> records = new TreeMap<>();
  private final List<JournalSalvage.Damage> damage = new ArrayList<>();

  @Test
  void everySoundRecordBeforeAndAfterDamageInAnySegmentIsRead() throws IOException {
    Path folder = dir.resolve("j");
    try (Journal j = Journal.open(folder, SMALL)) {
      for (int n = 1; n <= 30; n++) {
        j.append(payload(n, 40)).join();
      }
    }
    List<Path> files = segments(folder);
    assertThat(files).hasSizeGreaterThanOrEqualTo(3);
    Path first = files.get(0);
    long damagedFrame = frameOffsets(first).get(1);
    flip(first, damagedFrame + Segments.FRAME_HEADER_BYTES + 5, 0x04);
    Path middle = files.get(1);
    flip(middle, 0, 0x01);
    Path last = files.get(files.size() - 1);
    byte[] bytes = Files.readAllBytes(last);
    long lastFrame = frameOffsets(last).get(frameOffsets(last).size() - 1);
    Files.write(last, Arrays.copyOfRange(bytes, (int) lastFrame, bytes.length),
        StandardOpenOption.APPEND);
    Files.write(last, new byte[7], StandardOpenOption.APPEND);

    JournalSalvage.Result r = JournalSalvage.read(folder, SMALL.maxRecordBytes(), visitor());

    assertThat(r.lastSequence()).isEqualTo(30);
    assertThat(r.firstSequence()).isEqualTo(1);
    assertThat(records.keySet()).as("all but record 2").hasSize(29).doesNotContain(2L);
    for (long n : records.keySet()) {
      assertThat(records.get(n)).isEqualTo(payload(n, 40));
    }
    assertThat(damage).extracting(JournalSalvage.Damage::file)
        .containsExactly(first, middle, last);
    assertThat(damage.get(0).offset()).isEqualTo(damagedFrame);
    assertThat(damage.get(0).length()).isEqualTo(Segments.FRAME_HEADER_BYTES + 40);
    assertThat(damage.get(0).reason()).isEqualTo("CRC mismatch");
    assertThat(damage.get(0).claimed()).as("the damaged payload, as its length says")
        .hasSize(40);
    assertThat(damage.get(1).reason()).isEqualTo("the segment header is damaged");
    // One stretch runs to the next sound frame: here the repeat and the zeros after it.
    assertThat(damage.get(2).reason()).isEqualTo("a repeat of record 30");
    assertThat(damage.get(2).offset()).isEqualTo(bytes.length);
    assertThat(damage.get(2).length()).isEqualTo(bytes.length - lastFrame + 7);
  }

  @Test
  void aFolderWithoutSegmentsHoldsNothing() throws IOException {
    Files.createDirectories(dir.resolve("empty"));
    JournalSalvage.Result r = JournalSalvage.read(dir.resolve("empty"), 1 << 20, visitor());
    assertThat(r.lastSequence()).isZero();
    assertThat(records).isEmpty();
    assertThat(damage).isEmpty();
  }

  private JournalSalvage.Visitor visitor() {
    return new JournalSalvage.Visitor() {
      @Override
      public void record(long sequence, byte[] payload) {
        records.put(sequence, payload);
      }

      @Override
      public void damaged(JournalSalvage.Damage d) {
        damage.add(d);
      }
    };
  }
}

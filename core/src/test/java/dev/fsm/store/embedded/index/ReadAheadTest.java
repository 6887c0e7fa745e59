package dev.fsm.store.embedded.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Items come out whole and in order, read a bounded way ahead, and failures come out as thrown. */
class ReadAheadTest {

  private static final Duration NO_HANG = Duration.ofSeconds(20);

  @Test
  void everyItemComesOutInTheSourcesOrder() throws IOException {
    int items = 256 * 8 * 3 + 17;
    List<Integer> read = new ArrayList<>();
    ReadAhead.<Integer>forEach(each -> {
      for (int n = 0; n < items; n++) {
        each.accept(n);
      }
    }, n -> 8, "test-reader", read::add);
    assertThat(read).hasSize(items);
    for (int n = 0; n < items; n++) {
      assertThat(read.get(n)).isEqualTo(n);
    }
    List<Integer> none = new ArrayList<>();
    ReadAhead.<Integer>forEach(each -> { }, n -> 8, "test-reader", none::add);
    assertThat(none).isEmpty();
  }

  @Test
  void aFailureOfTheSourceIsThrownToTheReaderAsItWasThrown() {
    IOException disk = new IOException("disk on fire");
    assertThatThrownBy(() -> drain(each -> {
      for (int n = 0; n < 600; n++) {
        each.accept(n);
      }
      throw disk;
    })).isSameAs(disk);
    assertThatThrownBy(() -> drain(each -> {
      throw new UncheckedIOException(disk);
    })).isSameAs(disk);
    IllegalArgumentException bad = new IllegalArgumentException("record 7 cannot be read");
    assertThatThrownBy(() -> drain(each -> {
      each.accept(1);
      throw bad;
    })).isSameAs(bad);
  }

  @Test
  void aBatchIsHandedOverAtItsWeightSoLargeItemsNeverPileUp() {
    AtomicLong offered = new AtomicLong();
    ReadAhead.Source<Integer> heavy = each -> {
      for (int n = 0; ; n++) {
        each.accept(n);
        offered.incrementAndGet();
      }
    };
    assertTimeoutPreemptively(NO_HANG, () -> {
      try (ReadAhead<Integer> reader = ReadAhead.start(heavy, n -> 1 << 20, "test-reader")) {
        assertThat(reader.next()).as("one 1 MiB item outweighs a batch").hasSize(1);
      }
    });
    assertThat(offered.get()).as("read ahead a bounded weight").isLessThan(12);
  }

  @Test
  void closingBeforeTheEndStopsTheReadingThread() {
    AtomicInteger offered = new AtomicInteger();
    ReadAhead.Source<Integer> endless = each -> {
      for (int n = 0; ; n++) {
        each.accept(n);
        offered.incrementAndGet();
      }
    };
    assertTimeoutPreemptively(NO_HANG, () -> {
      try (ReadAhead<Integer> reader = ReadAhead.start(endless, n -> 8, "test-reader")) {
        assertThat(reader.next()).hasSize(256);
      }
    });
    int afterClose = offered.get();
    assertThat(afterClose).as("read ahead a bounded number of batches").isLessThan(256 * 12);
    assertThat(offered.get()).as("stopped").isEqualTo(afterClose);
  }

  private static void drain(ReadAhead.Source<Integer> source) throws IOException {
    ReadAhead.forEach(source, n -> 8, "test-reader", n -> { });
  }
}

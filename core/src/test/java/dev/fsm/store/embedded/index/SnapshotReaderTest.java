package dev.fsm.store.embedded.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.fsm.store.MachineVersion;
import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The snapshot's tasks come out encoded, whole and in order, and its failures come out as thrown. */
class SnapshotReaderTest {

  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final Duration NO_HANG = Duration.ofSeconds(20);

  private static Task task(int n) {
    String context = "{\"order\":" + n + ",\"note\":\"" + "y".repeat(n % 90) + "\"}";
    return new Task(String.format("t%06d", n), "m", "v1", "a", TaskStatus.RUNNABLE, context, 0,
        List.of(), T0, T0, T0, T0, null);
  }

  @Test
  void everyTaskComesOutEncodedInTheSnapshotsOrderAndTheVersionsAfterTheEnd()
      throws IOException {
    int tasks = 256 * 8 * 3 + 17;
    MachineVersion version = new MachineVersion("m", "abc", 1, T0, "machine: m");
    TaskIndex.SnapshotSource source = each -> {
      each.accept(new StoreEvent.Registered(version));
      for (int n = 0; n < tasks; n++) {
        each.accept(new StoreEvent.Restored(task(n), List.of()));
      }
    };
    List<SnapshotReader.Encoded> read = new ArrayList<>();
    try (SnapshotReader reader = SnapshotReader.start(source)) {
      for (List<SnapshotReader.Encoded> b = reader.next(); b != null; b = reader.next()) {
        read.addAll(b);
      }
      assertThat(reader.next()).isNull();
      assertThat(reader.versions()).containsExactly(new StoreEvent.Registered(version));
    }
    assertThat(read).hasSize(tasks);
    for (int n = 0; n < tasks; n++) {
      SnapshotReader.Encoded e = read.get(n);
      Task expected = task(n);
      assertThat(e.id()).isEqualTo(expected.id());
      assertThat(e.name()).isEqualTo(IndexKeys.name(expected.id()));
      assertThat(TaskValues.decode(IndexKeys.id(expected.id()), e.value())).isEqualTo(expected);
    }
  }

  @Test
  void aFailureReadingTheSnapshotIsThrownToTheRebuildAsItWasThrown() {
    IOException disk = new IOException("disk on fire");
    TaskIndex.SnapshotSource failing = each -> {
      for (int n = 0; n < 600; n++) {
        each.accept(new StoreEvent.Restored(task(n), List.of()));
      }
      throw disk;
    };
    assertThatThrownBy(() -> drain(failing)).isSameAs(disk);

    UncheckedIOException wrapped = new UncheckedIOException(disk);
    assertThatThrownBy(() -> drain(each -> {
      throw wrapped;
    })).isSameAs(disk);

    assertThatThrownBy(() -> drain(each -> each.accept(new StoreEvent.Purged(List.of("x")))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a snapshot holds no Purged records");
  }

  @Test
  void closingBeforeTheEndStopsTheReadingThread() {
    AtomicInteger offered = new AtomicInteger();
    TaskIndex.SnapshotSource endless = each -> {
      for (int n = 0; ; n++) {
        each.accept(new StoreEvent.Restored(task(n % 1000), List.of()));
        offered.incrementAndGet();
      }
    };
    assertTimeoutPreemptively(NO_HANG, () -> {
      try (SnapshotReader reader = SnapshotReader.start(endless)) {
        assertThat(reader.next()).hasSize(256);
      }
    });
    int afterClose = offered.get();
    assertThat(afterClose).as("read ahead a bounded number of batches").isLessThan(256 * 12);
  }

  private static void drain(TaskIndex.SnapshotSource source) throws IOException {
    try (SnapshotReader reader = SnapshotReader.start(source)) {
      while (reader.next() != null) {
        // Drained for the failure at the end.
      }
    }
  }
}

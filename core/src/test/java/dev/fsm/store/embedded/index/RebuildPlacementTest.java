package dev.fsm.store.embedded.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.store.MachineVersion;
import dev.fsm.store.embedded.check.Comparison;
import dev.fsm.store.embedded.event.PackedTask;
import dev.fsm.store.embedded.event.SnapshotRecord;
import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.store.embedded.event.StoreEventCodec;
import dev.fsm.store.embedded.event.TransitionCodec;
import dev.fsm.task.Lease;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rebuilt index, its maps bulk-loaded from a snapshot or not and its queues and groups built
 * at the end, equals one built by applying the same records one by one.
 */
class RebuildPlacementTest {

  private static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
  private static final String[] MACHINES = {"order", "ship", "a\u0000b", "é"};
  private static final String[] STATES = {"new", "charge", "done", ""};

  @TempDir Path dir;

  @Test
  void anEmptySnapshotGivesAnEmptyIndex() throws IOException {
    assertSame(List.of(versions()), List.of(), 1 << 20, 1 << 20);
    assertSame(List.of(), List.of(), 1 << 20, 1 << 20);
  }

  @Test
  void manyTasksInOneRunMatch() throws IOException {
    assertSame(snapshot(3000, 1), List.of(), 1 << 20, 1 << 20);
  }

  @Test
  void manyTasksSpilledInSmallRunsMatch() throws IOException {
    assertSame(snapshot(3000, 2), List.of(), 2048, 1024);
  }

  @Test
  void aJournalTailOverTheSnapshotMatches() throws IOException {
    List<StoreEvent> snapshot = snapshot(500, 3);
    assertSame(snapshot, tail(snapshot), 512, 256);
  }

  @Test
  void aRebuildFromTheJournalAloneMatches() throws IOException {
    List<StoreEvent> journal = new ArrayList<>(snapshot(800, 4));
    journal.addAll(tail(journal));
    Path rebuiltFile = dir.resolve("journal-only.db");
    try (TaskIndex each = TaskIndex.create(dir.resolve("journal-each.db"));
        JournalTail sorted = journal(rebuiltFile, journal, 2048);
        TaskIndex rebuilt = SnapshotLoad.load(rebuiltFile, SnapshotLoad.NONE, sorted, 1024,
            512)) {
      journal.forEach(each::apply);
      assertEqual(each.collections(), rebuilt.collections());
      assertThat(rebuilt.claimable(10_000, T.plusSeconds(3600), t -> true))
          .isEqualTo(each.claimable(10_000, T.plusSeconds(3600), t -> true));
    }
  }

  /**
   * Records after a snapshot: a third of its tasks sent to sleep (some twice over), a seventh's
   * last entry written again (a checkpoint's copy may hold changes its journal replays), a fifth
   * leased by a store of an earlier version (which changes nothing now), and new tasks (ids
   * sorting among the snapshot's, one with a history of several chunks).
   */
  private static List<StoreEvent> tail(List<StoreEvent> snapshot) {
    List<StoreEvent> later = new ArrayList<>();
    for (StoreEvent e : snapshot) {
      if (e instanceof StoreEvent.Restored r && r.task().id().hashCode() % 7 == 0
          && !r.history().isEmpty()) {
        later.add(new StoreEvent.Changed(TaskIndex.withoutLease(r.task()),
            r.history().get(r.history().size() - 1), r.history().size() - 1));
      }
      if (e instanceof StoreEvent.Restored r && r.task().id().hashCode() % 6 == 0) {
        later.add(new StoreEvent.Changed(sleeping(TaskIndex.withoutLease(r.task())),
            new Transition(T.plusSeconds(4), r.task().state(), "sleep", r.task().state(), 0, 1,
                "op", "first"), r.history().size()));
        later.add(new StoreEvent.Created(List.of(
            TaskIndex.withoutLease(task(r.task().id() + "-new", new Random(3))))));
      }
      if (e instanceof StoreEvent.Restored r && r.task().id().hashCode() % 3 == 0) {
        later.add(new StoreEvent.Changed(sleeping(TaskIndex.withoutLease(r.task())),
            new Transition(T.plusSeconds(5), r.task().state(), "sleep", r.task().state(), 0, 1,
                "op", ""), r.history().size()));
      }
      if (e instanceof StoreEvent.Restored r && r.task().id().hashCode() % 5 == 0) {
        later.add(new StoreEvent.Leased(List.of(sleeping(r.task()).withLease(
            new Lease("w", T.plusSeconds(90))))));
      }
    }
    Task fresh = TaskIndex.withoutLease(task("new", new Random(9)));
    later.add(new StoreEvent.Created(List.of(fresh)));
    for (int place = 0; place < 2 * TaskHistories.CHUNK + 3; place++) {
      later.add(new StoreEvent.Changed(fresh, new Transition(T.plusSeconds(place), "a", "go",
          "b", place, 1, "w", ""), place));
    }
    return later;
  }

  /** The records sorted for a rebuild, as journal records 1, 2, ... */
  private static JournalTail journal(Path indexFile, List<StoreEvent> records, long runBytes)
      throws IOException {
    JournalTail journal = new JournalTail(indexFile, runBytes);
    long sequence = 0;
    for (StoreEvent e : records) {
      journal.add(++sequence, e);
    }
    return journal;
  }

  /** Checks the rebuild from a snapshot of whole tasks, as earlier fsms wrote, and of packed. */
  private void assertSame(List<StoreEvent> events, List<StoreEvent> tail, long runBytes,
      long memberBytes) throws IOException {
    assertSame(events.stream().<SnapshotRecord>map(SnapshotRecord.Event::new).toList(), events,
        tail, runBytes, memberBytes, "whole");
    assertSame(events.stream().map(RebuildPlacementTest::packed).toList(), events, tail,
        runBytes, memberBytes, "packed");
  }

  /** The snapshot record a checkpoint of this fsm writes for an event, read back. */
  private static SnapshotRecord packed(StoreEvent e) {
    if (!(e instanceof StoreEvent.Restored r)) {
      return new SnapshotRecord.Event(e);
    }
    List<byte[]> history = r.history().stream().map(TransitionCodec::encode).toList();
    byte[] record = StoreEventCodec.encodePacked(r.task().id(),
        PackedTask.encode(TaskIndex.withoutLease(r.task())), history);
    return StoreEventCodec.decodeSnapshotRecord(record);
  }

  private void assertSame(List<SnapshotRecord> snapshot, List<StoreEvent> events,
      List<StoreEvent> tail, long runBytes, long memberBytes, String kind) throws IOException {
    String name = kind + "-" + runBytes + "-" + events.size() + "-" + tail.size();
    Path bulkFile = dir.resolve("bulk-" + name + ".db");
    try (TaskIndex each = TaskIndex.create(dir.resolve("each-" + name + ".db"))) {
      events.forEach(each::apply);
      tail.forEach(each::apply);
      try (JournalTail journal = journal(bulkFile, tail, runBytes);
          TaskIndex bulk = SnapshotLoad.load(bulkFile, snapshot::forEach, journal, runBytes,
              memberBytes)) {
        assertEqual(each.collections(), bulk.collections());
        assertThat(bulk.counts()).isEqualTo(each.counts());
        assertThat(bulk.nextDue()).isEqualTo(each.nextDue());
        bulk.markClosedAt(7);
      }
      try (Stream<Path> left = Files.list(dir)) {
        assertThat(left.filter(p -> p.toString().endsWith(".spill"))).isEmpty();
      }
      try (TaskIndex reopened = TaskIndex.open(IndexFile.open(bulkFile))) {
        reopened.check(7);
        assertEqual(each.collections(), reopened.collections());
      }
    }
  }

  private static void assertEqual(SortedMap<String, Object> expected,
      SortedMap<String, Object> actual) {
    assertThat(actual.keySet()).isEqualTo(expected.keySet());
    Comparison c = new Comparison();
    expected.forEach((name, e) -> c.compare(name, e, actual.get(name)));
    assertThat(c.differencesFound()).as("%s", c.differences()).isZero();
  }

  /** Tasks of every kind, in the snapshot's order (ids as UTF-8 bytes, unsigned). */
  private static List<StoreEvent> snapshot(int n, long seed) {
    Random random = new Random(seed);
    TreeSet<String> ids = new TreeSet<>(Comparator.comparing(IndexKeys::id,
        Arrays::compareUnsigned));
    while (ids.size() < n) {
      ids.add(switch (random.nextInt(4)) {
        case 0 -> "t-" + random.nextInt(100_000);
        case 1 -> "t-" + random.nextInt(1000) + "\u0000";
        case 2 -> "ü" + random.nextInt(10_000);
        default -> Long.toString(random.nextLong(), 36);
      });
    }
    List<StoreEvent> events = new ArrayList<>(List.of(versions()));
    for (String id : ids) {
      Task t = task(id, random);
      List<Transition> history = new ArrayList<>();
      for (int i = random.nextInt(3); i > 0; i--) {
        history.add(new Transition(T.plusSeconds(i), "new", "go", t.state(), i, 1, "w", ""));
      }
      events.add(new StoreEvent.Restored(t, history));
    }
    return events;
  }

  private static StoreEvent versions() {
    return new StoreEvent.Registered(new MachineVersion("order", "0123456789ab", 1, T, "m\n"));
  }

  private static Task task(String id, Random random) {
    TaskStatus status = TaskStatus.values()[random.nextInt(TaskStatus.values().length)];
    // Few distinct due times, so that slots often tie on time and sort by id.
    Instant due = random.nextInt(10) == 0 ? null
        : T.plusSeconds(random.nextInt(50)).plusNanos(random.nextInt(3));
    Lease lease = random.nextInt(4) == 0
        ? new Lease("w" + random.nextInt(2), T.plusSeconds(random.nextInt(100))) : null;
    return new Task(id, MACHINES[random.nextInt(MACHINES.length)], "0123456789ab",
        STATES[random.nextInt(STATES.length)], status, "{}", 1, List.of(), T, T, null, due,
        lease);
  }

  private static Task sleeping(Task t) {
    return new Task(t.id(), t.machine(), t.version(), t.state(), TaskStatus.SLEEPING,
        t.context(), t.attempt(), t.errors(), t.created(), t.stateEntered(), t.lastAttempt(),
        T.plusSeconds(30), t.lease());
  }
}

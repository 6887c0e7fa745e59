package dev.fsm.store.embedded.index;

import dev.fsm.store.embedded.event.PackedTask;
import dev.fsm.store.embedded.event.SnapshotRecord;
import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.store.embedded.event.TransitionCodec;
import dev.fsm.task.Task;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import org.mapdb.DB;

/**
 * Builds a rebuilt index's task and history maps bottom-up with MapDB's sinks (inserted one by
 * one, a node is rewritten per insert and left with free space), merging two inputs in id order:
 * the snapshot of the last checkpoint, which lists tasks in id order, and the journal after it
 * sorted by task ({@link JournalTail}), whose last snapshot of a task and last version of a
 * history entry win, as replaying the journal over the snapshot would leave them. The snapshot
 * is read and its tasks encoded and placed on a thread of their own ({@link ReadAhead}). Each
 * task's place in the queues and groups goes to a {@link Placement} as the task is stored, which
 * builds them at the end.
 */
public final class SnapshotLoad {

  /** No checkpoint yet: nothing before the journal. */
  public static final TaskIndex.SnapshotSource NONE = each -> { };

  private final DB.TreeMapSink<byte[], byte[]> tasksSink;
  private final DB.TreeMapSink<byte[], byte[]> historySink;
  private final JournalTail.Last<JournalTail.LastTask> journalTasks;
  private final JournalTail.Last<JournalTail.LastEntry> journalEntries;
  private final Placement placement;
  private final Runnable settle;
  private long loaded;

  private SnapshotLoad(DB db, JournalTail.Last<JournalTail.LastTask> journalTasks,
      JournalTail.Last<JournalTail.LastEntry> journalEntries, Placement placement,
      Runnable settle) {
    this.tasksSink = IndexLayout.tasksMaker(db).createFromSink();
    this.historySink = IndexLayout.historyMaker(db).createFromSink();
    this.journalTasks = journalTasks;
    this.journalEntries = journalEntries;
    this.placement = placement;
    this.settle = settle;
  }

  /**
   * The index for {@code file}, which must not exist yet, from {@code snapshot} and the journal
   * after it, its queues and groups sorted in runs of {@code runBytes} of heap and its group
   * members spilled beyond {@code memberBytes} (see {@link Placement}).
   */
  static TaskIndex load(Path file, TaskIndex.SnapshotSource snapshot, JournalTail tail,
      long runBytes, long memberBytes) throws IOException {
    IndexFile opened = IndexFile.open(file);
    DB db = opened.db();
    try (JournalTail.Last<JournalTail.LastTask> tasks = tail.tasks();
        JournalTail.Last<JournalTail.LastEntry> entries = tail.entries();
        Placement placement = new Placement(file, runBytes, memberBytes)) {
      SnapshotLoad load = new SnapshotLoad(db, tasks, entries, placement,
          opened.volume()::settle);
      List<StoreEvent> versions = new ArrayList<>();
      try {
        ReadAhead.<Encoded>forEach(each -> snapshot.read(record -> {
          Encoded task = encoded(record, versions);
          if (task != null) {
            each.accept(task);
          }
        }), Encoded::weight, "fsm-snapshot-reader", task -> {
          load.journalOnlyBefore(task.name());
          load.emit(task.id(), task.value(), task.place(), task.history());
        });
        load.journalOnlyBefore(null);
      } catch (UncheckedIOException e) {
        throw e.getCause();
      }
      load.tasksSink.create();
      load.historySink.create();
      placement.build(db, opened.volume()::settle);
      TaskIndex index = TaskIndex.rebuilt(opened);
      versions.forEach(index::apply);
      tail.versions().forEach(index::apply);
      return index;
    } catch (IOException | RuntimeException | Error e) {
      db.close();
      throw e;
    }
  }

  /** A snapshot's task, ready to be stored: its id, key name, index value, place and history. */
  private record Encoded(String id, byte[] name, byte[] value, Placement.Place place,
      List<byte[]> history) {

    /** About the heap it holds: its value, place and history. */
    long weight() {
      long bytes = value.length + place.weight();
      for (byte[] entry : history) {
        bytes += entry.length + 16;
      }
      return bytes;
    }
  }

  /**
   * A snapshot record made ready on the reading thread: a task as the index stores it (packed, as
   * this fsm's snapshots keep it, or else encoded, its context deflated) and placed, or null for
   * a machine version, added to {@code versions}.
   */
  private static Encoded encoded(SnapshotRecord record, List<StoreEvent> versions) {
    if (record instanceof SnapshotRecord.Packed p) {
      Task placed = PackedTask.decodeWithoutContext(p.id(), p.task());
      return new Encoded(p.id(), IndexKeys.name(p.id()), p.task(), Placement.Place.of(placed),
          p.history());
    }
    StoreEvent event = ((SnapshotRecord.Event) record).event();
    if (event instanceof StoreEvent.Restored r) {
      Task task = TaskIndex.withoutLease(r.task());
      String id = task.id();
      List<byte[]> history = new ArrayList<>(r.history().size());
      for (Transition entry : r.history()) {
        history.add(TransitionCodec.encode(entry));
      }
      return new Encoded(id, IndexKeys.name(id), TaskValues.encode(task),
          Placement.Place.of(task), history);
    } else if (event instanceof StoreEvent.Registered) {
      versions.add(event);
      return null;
    }
    throw new IllegalArgumentException("a snapshot holds no "
        + event.getClass().getSimpleName() + " records");
  }

  /** Emits every task the journal has and the snapshot lacks that sorts before {@code name}. */
  private void journalOnlyBefore(byte[] name) {
    while (true) {
      JournalTail.LastTask t = journalTasks.peek();
      JournalTail.LastEntry e = journalEntries.peek();
      byte[] tn = t == null ? null : t.name();
      byte[] en = e == null ? null : e.name();
      byte[] first = tn == null ? en : en == null || Arrays.compareUnsigned(tn, en) <= 0 ? tn : en;
      if (first == null || name != null && Arrays.compareUnsigned(first, name) >= 0) {
        return;
      }
      emit(first == tn ? t.id() : e.id(), null, null, List.of());
    }
  }

  /**
   * Emits one task: the journal's last snapshot of it, else the snapshot's ({@code null}: none),
   * and its history, the snapshot's entries overlaid with the journal's. The snapshot's copy
   * wins when it is further ahead than the journal's last record of the task: a journal cut
   * short (damage cut away by a repair) can lack changes a checkpoint copied, and laying its
   * older record over the snapshot's longer history would tear the task, its status from one
   * change and its history from another. A purge in the journal ends all that came before it:
   * the snapshot's copy (which a checkpoint may have taken before the purge) and the journal's
   * earlier entries; only a task created again after it, and its entries, remain.
   */
  private void emit(String id, byte[] fromSnapshot, Placement.Place snapshotPlace,
      List<byte[]> history) {
    try {
      byte[] task = fromSnapshot;
      Placement.Place placed = snapshotPlace;
      long purgedAt = -1;
      JournalTail.LastTask t = journalTasks.peek();
      if (t != null && t.id().equals(id)) {
        JournalTail.LastTask last = journalTasks.take();
        purgedAt = last.purgedAt();
        if (purgedAt >= 0 || fromSnapshot == null || last.revision() >= history.size()) {
          task = last.encoded();
          placed = task == null ? null
              : Placement.Place.of(PackedTask.decodeWithoutContext(id, task));
        }
      }
      TreeMap<Integer, byte[]> entries = new TreeMap<>();
      for (int place = 0; purgedAt < 0 && place < history.size(); place++) {
        entries.put(place, history.get(place));
      }
      for (JournalTail.LastEntry e = journalEntries.peek(); e != null && e.id().equals(id);
          e = journalEntries.peek()) {
        JournalTail.LastEntry taken = journalEntries.take();
        if (taken.sequence() > purgedAt) {
          entries.put(taken.place(), taken.encoded());
        }
      }
      if (task != null) {
        tasksSink.put(IndexKeys.id(id), task);
        placement.add(placed);
      }
      TaskHistories.chunksOf(id, entries, historySink::put);
      if (++loaded % TaskIndex.SETTLE_EVERY == 0) {
        settle.run();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

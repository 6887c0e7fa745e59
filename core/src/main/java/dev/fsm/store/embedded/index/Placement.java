package dev.fsm.store.embedded.index;

import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.io.IOException;
import java.nio.file.Path;
import org.mapdb.BTreeMap;
import org.mapdb.DB;

/**
 * Builds a rebuilt index's queues and groups bottom-up with MapDB's sinks from where each task
 * ends up: that depends only on its last snapshot, so a rebuild need not move tasks between
 * queues and groups record by record. The rebuild tells each task's {@link Place} as it stores
 * the task ({@link SnapshotLoad}), in id order; the snapshot's are worked out on its reading
 * thread, so the tasks are neither read back nor decoded again. No task is leased after a
 * rebuild, so every scheduled task goes in the due queue. Arriving in id order, the group
 * members need only gathering per group ({@link MemberSpill}), and the due queue and creation
 * order a sort in bounded runs ({@link KeySorter}). Spill files sit next to the index and are
 * deleted when done.
 */
final class Placement implements AutoCloseable {

  /**
   * Heap for one queue's sort run: about 67,000 slots of a 26-byte id. The two sorts and the
   * members fill while the snapshot and journal are merged, beside their read-ahead and merge
   * buffers: at 8 MiB each, a rebuild of 1.73M records ran out of a 64 MiB heap one time in
   * three.
   */
  static final long RUN_BYTES = 4L << 20;
  /** Heap for group members held before they are spilled; a growing buffer may double it. */
  static final long MEMBER_BYTES = 2L << 20;

  /** Where a task goes: its due slot (null: not in the queue), creation slot and group. */
  record Place(byte[] id, byte[] due, byte[] created, String machine, String state,
      TaskStatus status) {

    static Place of(Task t) {
      return new Place(IndexKeys.id(t.id()),
          TaskQueues.scheduled(t) ? IndexKeys.slot(t.due(), t.id()) : null,
          TaskCreations.slot(t), t.machine(), t.state(), t.status());
    }

    /** About the heap it holds. */
    int weight() {
      return 3 * id.length + 64;
    }
  }

  private final KeySorter due;
  private final KeySorter created;
  private final MemberSpill members;

  Placement(Path file, long runBytes, long memberBytes) {
    this.due = new KeySorter(spill(file, "due"), runBytes);
    this.created = new KeySorter(spill(file, TaskCreations.NAME), runBytes);
    this.members = new MemberSpill(spill(file, "groups"), memberBytes);
  }

  /** Places the next task, in id order. */
  void add(Place p) throws IOException {
    if (p.due() != null) {
      due.add(p.due());
    }
    created.add(p.created());
    members.add(p.machine(), p.state(), p.status(), p.id());
  }

  /** Creates the due queue, the creation order, the group set and the group counts. */
  void build(DB db, Runnable settle) throws IOException {
    sort(db, IndexLayout.DUE, due);
    settle.run();
    sort(db, TaskCreations.NAME, created);
    settle.run();
    SetSink groups = new SetSink(db, IndexLayout.GROUPS, IndexLayout.NODE);
    BTreeMap<byte[], Long> counts = IndexLayout.countsMaker(db).create();
    members.drain(counts::put, groups::put);
    groups.create();
  }

  private static void sort(DB db, String name, KeySorter keys) throws IOException {
    SetSink set = new SetSink(db, name, IndexLayout.NODE);
    keys.drain(set::put);
    set.create();
  }

  @Override
  public void close() throws IOException {
    try (KeySorter d = due; KeySorter c = created; MemberSpill m = members) {
      // Each closes, deleting its spill file, even when another fails to.
    }
  }

  private static Path spill(Path file, String what) {
    return file.resolveSibling(file.getFileName() + "." + what + ".spill");
  }
}

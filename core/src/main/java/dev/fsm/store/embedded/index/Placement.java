package dev.fsm.store.embedded.index;

import dev.fsm.task.Task;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.mapdb.BTreeMap;
import org.mapdb.DB;

/**
 * Builds the index's queues and groups bottom-up with MapDB's sinks from its tasks as they stand
 * at the end of a rebuild: where each task sits depends only on its last snapshot, so a rebuild
 * need not move tasks between queues and groups record by record. No task is leased after a
 * rebuild, so every scheduled task goes in the due queue. The tasks come in id order, so the
 * group members need only gathering per group ({@link MemberSpill}), and the due queue a sort in
 * bounded runs ({@link KeySorter}). Spill files sit next to the index and are deleted when done.
 */
final class Placement {

  /**
   * Heap for one queue's sort run: about 135,000 slots of a 26-byte id. Small enough that a
   * rebuild of 1M tasks runs in 64 MiB of heap; larger runs made it no faster.
   */
  static final long RUN_BYTES = 8L << 20;
  /** Heap for group members held before they are spilled; a growing buffer may double it. */
  static final long MEMBER_BYTES = 4L << 20;

  private Placement() {}

  /** Creates the due queue, the group set and the group counts from {@code tasks}. */
  static void build(DB db, Iterable<Map.Entry<byte[], byte[]>> tasks, Path file, long runBytes,
      long memberBytes, Runnable settle) throws IOException {
    long placed = 0;
    try (KeySorter due = new KeySorter(spill(file, "due"), runBytes);
        KeySorter created = new KeySorter(spill(file, TaskCreations.NAME), runBytes);
        MemberSpill members = new MemberSpill(spill(file, "groups"), memberBytes)) {
      for (Map.Entry<byte[], byte[]> entry : tasks) {
        Task t = TaskIndex.decode(entry);
        if (TaskQueues.scheduled(t)) {
          due.add(IndexKeys.slot(t.due(), t.id()));
        }
        created.add(TaskCreations.slot(t));
        members.add(t);
        if (++placed % TaskIndex.SETTLE_EVERY == 0) {
          settle.run();
        }
      }
      sort(db, TaskIndex.DUE, due);
      settle.run();
      sort(db, TaskCreations.NAME, created);
      settle.run();
      SetSink groups = new SetSink(db, TaskIndex.GROUPS, TaskIndex.NODE);
      BTreeMap<byte[], Long> counts = TaskIndex.countsMaker(db).create();
      members.drain(counts::put, groups::put);
      groups.create();
    }
  }

  private static void sort(DB db, String name, KeySorter keys) throws IOException {
    SetSink set = new SetSink(db, name, TaskIndex.NODE);
    keys.drain(set::put);
    set.create();
  }

  private static Path spill(Path file, String what) {
    return file.resolveSibling(file.getFileName() + "." + what + ".spill");
  }
}

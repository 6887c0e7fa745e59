package dev.fsm.store.embedded;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.mapdb.DB;

/**
 * Starts a rebuild from a snapshot: a new index whose task and history maps MapDB's sinks build
 * bottom-up, as the snapshot lists tasks in id order (inserted one by one, a node is rewritten
 * per insert and left with free space). The index is left rebuilding: see {@link
 * TaskIndex#placeAll}.
 */
final class SnapshotLoad {

  private SnapshotLoad() {}

  static TaskIndex load(Path file, TaskIndex.SnapshotSource snapshot) throws IOException {
    TaskIndex.IndexFile opened = TaskIndex.openFile(file);
    DB db = opened.db();
    try {
      DB.TreeMapSink<byte[], byte[]> tasksSink = TaskIndex.tasksMaker(db).createFromSink();
      DB.TreeMapSink<byte[], byte[]> historySink = TaskIndex.historyMaker(db).createFromSink();
      List<StoreEvent> versions = new ArrayList<>();
      long[] loaded = {0};
      snapshot.read(event -> {
        if (event instanceof StoreEvent.Restored r) {
          String id = r.task().id();
          tasksSink.put(IndexKeys.id(id),
              StoreEventCodec.encodeTask(TaskIndex.withoutLease(r.task())));
          TaskHistories.chunksOf(id, r.history(), historySink::put);
          if (++loaded[0] % TaskIndex.SETTLE_EVERY == 0) {
            opened.volume().settle();
          }
        } else if (event instanceof StoreEvent.Registered) {
          versions.add(event);
        } else {
          throw new IllegalArgumentException("a snapshot holds no "
              + event.getClass().getSimpleName() + " records");
        }
      });
      tasksSink.create();
      historySink.create();
      TaskIndex index = TaskIndex.rebuilding(opened, true);
      versions.forEach(index::apply);
      return index;
    } catch (IOException | RuntimeException | Error e) {
      db.close();
      throw e;
    }
  }
}

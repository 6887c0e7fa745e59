package dev.fsm.store.embedded.checkpoint;

import dev.fsm.store.MachineVersion;
import dev.fsm.store.embedded.event.SnapshotRecord;
import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.store.embedded.event.StoreEventCodec;
import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.store.embedded.journal.Journal;
import dev.fsm.store.embedded.journal.SnapshotFile;
import dev.fsm.store.embedded.write.StoreGate;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * One checkpoint: writes a snapshot of every machine version and task (with its history) and
 * deletes the journal segments it makes redundant, so that disk use and rebuild time track live
 * data, not all history ever written. It runs while the store works: the journal is rolled at
 * record S under the store's lock, then tasks are copied a chunk at a time, each chunk under the
 * lock. A copy may therefore include changes after S; that is safe because replaying the journal
 * from S + 1 over the snapshot applies each change again, and applying a change twice is the
 * same as once (see {@link TaskIndex#apply}). It is safe only if the journal holds every change
 * the copy does: the index applies a change as soon as it is appended, before the journal's
 * writer has written it, so the snapshot is published only once every change appended before
 * its last chunk is durable (see {@link Copy#hasNext}).
 */
public final class Checkpoint {

  /**
   * Tasks are copied, with their histories, for at most this long per hold of the lock, and
   * while writers are at work the checkpoint holds the lock at most a third of the time (see
   * {@link StoreGate#yieldToWriters}). Holds of 5-7 ms, one straight after the other, kept
   * writers waiting 200-300 ms in a checkpoint under half load, and made the store bench's p99
   * acknowledgement 200-370 ms.
   */
  private static final long HOLD_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private Checkpoint() {}

  /**
   * Takes a checkpoint.
   *
   * @param stop asked between chunks; true abandons the checkpoint (the old snapshot and the
   *     journal stay as they were)
   * @throws CancelledException when {@code stop} said so
   */
  public static CheckpointReport take(Path folder, StoreGate gate, Journal journal, TaskIndex index,
      BooleanSupplier stop) throws IOException {
    long started = System.nanoTime();
    String[] lastId = new String[1];
    long last = gate.locked(() -> {
      journal.roll();
      lastId[0] = index.lastTaskId();
      return journal.lastSequence();
    });
    Path file = folder.resolve(SnapshotFile.NAME);
    SnapshotFile.Info info =
        SnapshotFile.write(file, last, new Copy(gate, index, lastId[0], stop));
    journal.deleteSegmentsBefore(last + 1);
    return new CheckpointReport(last, info.records(), Files.size(file),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
  }

  /** Thrown through the snapshot writer to abandon a checkpoint. */
  static final class CancelledException extends RuntimeException {

    CancelledException() {
      super("checkpoint abandoned", null, false, false);
    }
  }

  /** The snapshot's records: machine versions, then tasks in id order, a chunk at a time. */
  private static final class Copy implements Iterator<byte[]> {

    private final StoreGate gate;
    private final TaskIndex index;
    private final BooleanSupplier stop;
    private final ArrayDeque<byte[]> ready = new ArrayDeque<>();
    private final String endId;
    private String lastId;
    private boolean versionsDone;
    private boolean tasksDone;
    /** The newest append when the last chunk was copied: what the copy may include. */
    private StoreGate.Pending<Void> covered;

    /**
     * Copies tasks up to {@code endId}, the last id when the journal was rolled: tasks created
     * after it are in the journal's tail, and a copy that followed them could chase a stream of
     * new ids for as long as tasks keep coming.
     */
    Copy(StoreGate gate, TaskIndex index, String endId, BooleanSupplier stop) {
      this.gate = gate;
      this.index = index;
      this.endId = endId;
      this.stop = stop;
      this.tasksDone = endId == null;
    }

    @Override
    public boolean hasNext() {
      while (ready.isEmpty() && (!versionsDone || !tasksDone)) {
        if (stop.getAsBoolean()) {
          throw new CancelledException();
        }
        long held = gate.locked(this::fill);
        gate.yieldToWriters(held);
      }
      if (ready.isEmpty() && covered != null) {
        // Without this wait, a kill could keep a change in the snapshot and lose its journal
        // record while keeping an earlier record of the same task, which a rebuild lays over
        // the snapshot's copy: a task with its status from one change and its history from
        // the next (issue 15). The wait costs one force per checkpoint.
        gate.await(covered);
        covered = null;
      }
      return !ready.isEmpty();
    }

    @Override
    public byte[] next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return ready.poll();
    }

    /** Copies a chunk; gives how long that took. */
    private long fill() {
      long started = System.nanoTime();
      covered = gate.afterLastChange(null);
      if (!versionsDone) {
        for (MachineVersion v : index.allVersions()) {
          ready.add(StoreEventCodec.encode(new StoreEvent.Registered(v)));
        }
        versionsDone = true;
      }
      if (tasksDone) {
        return System.nanoTime() - started;
      }
      Iterator<SnapshotRecord.Packed> chunk = index.packedBetween(lastId, endId);
      while (chunk.hasNext()) {
        SnapshotRecord.Packed t = chunk.next();
        ready.add(StoreEventCodec.encodePacked(t.id(), t.task(), t.history()));
        lastId = t.id();
        long held = System.nanoTime() - started;
        if (held >= HOLD_NANOS) {
          return held;
        }
      }
      tasksDone = true;
      return System.nanoTime() - started;
    }
  }
}

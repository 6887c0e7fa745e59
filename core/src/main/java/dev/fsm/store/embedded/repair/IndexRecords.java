package dev.fsm.store.embedded.repair;

import dev.fsm.store.MachineVersion;
import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.store.embedded.event.StoreEventCodec;
import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.task.Task;
import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.Consumer;

/**
 * An index's content as snapshot records, as a checkpoint writes them (machine versions, then
 * every task with its history in id order), read lazily from an index nothing else uses: what a
 * repair writes once it has built the state it kept. Each task is also shown to {@code seen}.
 */
final class IndexRecords implements Iterator<byte[]> {

  /** A task as it is written, and whether its machine version is registered. */
  record Kept(Task task, boolean registered) {}

  private final TaskIndex index;
  private final Consumer<Kept> seen;
  private final ArrayDeque<byte[]> ready = new ArrayDeque<>();
  private final Set<String> versions = new HashSet<>();
  private final Iterator<Task> tasks;

  IndexRecords(TaskIndex index, Consumer<Kept> seen) {
    this.index = index;
    this.seen = seen;
    for (MachineVersion v : index.allVersions()) {
      versions.add(v.machine() + "\n" + v.version());
      ready.add(StoreEventCodec.encode(new StoreEvent.Registered(v)));
    }
    String last = index.lastTaskId();
    this.tasks = last == null ? java.util.Collections.emptyIterator()
        : index.tasksBetween(null, last);
  }

  @Override
  public boolean hasNext() {
    if (ready.isEmpty() && tasks.hasNext()) {
      Task t = tasks.next();
      seen.accept(new Kept(t, versions.contains(t.machine() + "\n" + t.version())));
      ready.add(StoreEventCodec.encode(new StoreEvent.Restored(t, index.history(t.id()))));
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
}

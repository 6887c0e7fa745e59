package dev.fsm.store.embedded.write;

import dev.fsm.FsmException;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.store.embedded.event.StoreEventCodec;
import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.task.Change;
import dev.fsm.task.Task;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns changes into journal records. A change must fit one record, so that a crash keeps all of
 * it or none. Records hold tasks without their leases, which live on the heap ({@link Leases});
 * the events given with them keep the leases, for the live index to note.
 */
public final class Records {

  /** Events and their encoded records, one for one. */
  record Encoded(List<StoreEvent> events, List<byte[]> records) {}

  private final Path folder;
  private final int limit;

  public Records(Path folder, int limit) {
    this.folder = folder;
    this.limit = limit;
  }

  public Encoded created(List<Task> tasks) {
    StoreEvent event = new StoreEvent.Created(tasks);
    byte[] record = StoreEventCodec.encode(new StoreEvent.Created(withoutLeases(tasks)));
    if (record.length > limit) {
      throw tooLarge("cannot create these " + tasks.size() + " tasks at once", record.length,
          tasks.size() == 1 ? "keep its context under 1 MiB" : "create them in smaller batches");
    }
    return new Encoded(List.of(event), List.of(record));
  }

  public Encoded changed(Change change, int historyIndex) {
    StoreEvent event = new StoreEvent.Changed(change.next(), change.entry(), historyIndex);
    byte[] record = change.next().lease() == null ? StoreEventCodec.encode(event)
        : StoreEventCodec.encode(new StoreEvent.Changed(TaskIndex.withoutLease(change.next()),
            change.entry(), historyIndex));
    if (record.length > limit) {
      throw tooLarge("cannot record this change of task `" + change.next().id() + "`",
          record.length, "keep the task's context under 1 MiB");
    }
    return new Encoded(List.of(event), List.of(record));
  }

  /** Restored tasks, leases dropped by the caller, in one record: all or none. */
  public Encoded imported(List<StoreEvent.Restored> tasks) {
    StoreEvent event = new StoreEvent.Imported(tasks);
    byte[] record = StoreEventCodec.encode(event);
    if (record.length > limit) {
      throw tooLarge(tasks.size() == 1 ? "cannot import task `" + tasks.get(0).task().id() + "`"
          : "cannot import these " + tasks.size() + " tasks at once", record.length,
          tasks.size() == 1 ? "this task's history is too long to import in one piece"
              : "import them in smaller batches");
    }
    return new Encoded(List.of(event), List.of(record));
  }

  public Encoded purged(List<String> ids) {
    StoreEvent event = new StoreEvent.Purged(ids);
    byte[] record = StoreEventCodec.encode(event);
    if (record.length > limit) {
      throw tooLarge("cannot purge these " + ids.size() + " tasks at once", record.length,
          "purge in smaller batches");
    }
    return new Encoded(List.of(event), List.of(record));
  }

  public Encoded registered(MachineVersion version) {
    StoreEvent event = new StoreEvent.Registered(version);
    byte[] record = StoreEventCodec.encode(event);
    if (record.length > limit) {
      throw tooLarge("cannot register this definition of machine " + version.machine(),
          record.length, "machine files are limited to 1 MiB");
    }
    return new Encoded(List.of(event), List.of(record));
  }

  private static List<Task> withoutLeases(List<Task> tasks) {
    List<Task> bare = tasks;
    for (int i = 0; i < tasks.size(); i++) {
      if (tasks.get(i).lease() != null) {
        if (bare == tasks) {
          bare = new ArrayList<>(tasks);
        }
        bare.set(i, TaskIndex.withoutLease(tasks.get(i)));
      }
    }
    return bare;
  }

  private FsmException tooLarge(String what, int bytes, String advice) {
    return new FsmException(what + " in store " + folder + ": that change takes " + bytes
        + " bytes, over the journal's limit of " + limit + " bytes for one change; " + advice
        + ".");
  }
}

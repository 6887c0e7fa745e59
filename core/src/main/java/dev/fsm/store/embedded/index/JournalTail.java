package dev.fsm.store.embedded.index;

import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.store.embedded.event.TransitionCodec;
import dev.fsm.task.Task;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.BinaryOperator;
import java.util.function.Function;

/**
 * The journal after a checkpoint, read for a rebuild and sorted by task: each task's last
 * snapshot and each history entry's last version, in id order, so that the rebuild can merge them
 * with the snapshot (also in id order) and build the index bottom-up with MapDB's sinks instead
 * of applying record after record to B-trees. Measured before: 63-82k transition records/s, the
 * B-tree descents of the task and history puts most of it. Sorting happens in bounded runs
 * ({@link KeySorter}) spilled next to the index.
 */
public final class JournalTail implements AutoCloseable {

  /** Heap for each sort run; about 25,000 transition records of 300 bytes. */
  public static final long RUN_BYTES = 8L << 20;

  /** Bytes between an item's id and its encoding that order the item's versions. */
  private static final int ORDER = 12;
  /** After a task's order: its revision. */
  private static final int REVISION = 4;

  /** A purge's revision in the sort: it holds no task. */
  private static final int PURGED = -1;

  /**
   * A task's last snapshot in the journal, and its revision: the length of its history once the
   * record's change is applied (each change adds one entry); {@code encoded} is null when the
   * last record purged it. {@code purgedAt} is the sequence of the task's last purge in the
   * journal (-1: none): nothing of it before then survives, neither the snapshot's copy nor
   * earlier history entries, since its id may name a new task after it.
   */
  record LastTask(String id, byte[] name, int revision, byte[] encoded, long purgedAt) {

    /** The later record's task, remembering the latest purge of both. */
    LastTask then(LastTask later) {
      return new LastTask(later.id, later.name, later.revision, later.encoded,
          Math.max(purgedAt, later.purgedAt));
    }
  }

  /**
   * A history entry's last version in the journal, and the sequence of its record; {@code name}
   * is its task's id as {@link IndexKeys#name} gives it.
   */
  record LastEntry(String id, byte[] name, int place, long sequence, byte[] encoded) {}

  /**
   * A journal record's sort keys, made by {@link #keysOf} on any thread (the rebuild's reading
   * one), so that adding them is all the sorting thread does.
   */
  public record Keys(List<byte[]> tasks, List<byte[]> entries, StoreEvent version) {

    /** About the heap it holds. */
    public long weight() {
      long bytes = 0;
      for (byte[] k : tasks) {
        bytes += k.length + 16;
      }
      for (byte[] k : entries) {
        bytes += k.length + 16;
      }
      return bytes;
    }
  }

  private final KeySorter tasks;
  private final KeySorter entries;
  private final List<StoreEvent> versions = new ArrayList<>();

  public JournalTail(Path indexFile, long runBytes) {
    this.tasks = new KeySorter(spill(indexFile, "tasks"), runBytes);
    this.entries = new KeySorter(spill(indexFile, "history"), runBytes);
  }

  /**
   * Adds the journal record {@code sequence}, as {@link TaskIndex#apply(StoreEvent)} would
   * apply it: tasks without their leases; {@code Leased} records of older journals change
   * nothing.
   */
  public void add(long sequence, StoreEvent event) throws IOException {
    add(keysOf(sequence, event));
  }

  /** Adds a journal record's keys, made by {@link #keysOf}. */
  public void add(Keys keys) throws IOException {
    for (byte[] k : keys.tasks()) {
      tasks.add(k);
    }
    for (byte[] k : keys.entries()) {
      entries.add(k);
    }
    if (keys.version() != null) {
      versions.add(keys.version());
    }
  }

  /** The sort keys of journal record {@code sequence}, as {@link #add(long, StoreEvent)} adds. */
  public static Keys keysOf(long sequence, StoreEvent event) {
    List<byte[]> tasks = new ArrayList<>(1);
    List<byte[]> entries = new ArrayList<>(1);
    if (event instanceof StoreEvent.Created c) {
      for (int i = 0; i < c.tasks().size(); i++) {
        tasks.add(taskKey(sequence, i, c.tasks().get(i), 0));
      }
    } else if (event instanceof StoreEvent.Changed c) {
      tasks.add(taskKey(sequence, 0, c.task(), c.historyIndex() + 1));
      entries.add(entryKey(sequence, c.task().id(), c.historyIndex(), c.entry()));
    } else if (event instanceof StoreEvent.Restored r) {
      restoredKeys(sequence, 0, r, tasks, entries);
    } else if (event instanceof StoreEvent.Imported imported) {
      for (int i = 0; i < imported.tasks().size(); i++) {
        restoredKeys(sequence, i, imported.tasks().get(i), tasks, entries);
      }
    } else if (event instanceof StoreEvent.Purged p) {
      for (int i = 0; i < p.ids().size(); i++) {
        tasks.add(purgeKey(sequence, i, p.ids().get(i)));
      }
    } else if (event instanceof StoreEvent.Registered) {
      return new Keys(tasks, entries, event);
    }
    return new Keys(tasks, entries, null);
  }

  private static void restoredKeys(long sequence, int ordinal, StoreEvent.Restored r,
      List<byte[]> tasks, List<byte[]> entries) {
    tasks.add(taskKey(sequence, ordinal, r.task(), r.history().size()));
    for (int place = 0; place < r.history().size(); place++) {
      entries.add(entryKey(sequence, r.task().id(), place, r.history().get(place)));
    }
  }

  /** The machine versions registered, in journal order. */
  List<StoreEvent> versions() {
    return versions;
  }

  /** Each task's last snapshot, in id order; close it when done. */
  Last<LastTask> tasks() throws IOException {
    return new Last<>(this.tasks.sorted(), key -> {
      int[] at = {0};
      String id = IndexKeys.nameAt(key, at);
      byte[] name = Arrays.copyOf(key, at[0]);
      ByteBuffer b = ByteBuffer.wrap(key);
      int revision = b.getInt(at[0] + ORDER);
      return revision == PURGED ? new LastTask(id, name, revision, null, b.getLong(at[0]))
          : new LastTask(id, name, revision, slice(key, at[0] + ORDER + REVISION), -1);
    }, (a, b) -> a.id().equals(b.id()), LastTask::then);
  }

  /** Each history entry's last version, in id then place order; close it when done. */
  Last<LastEntry> entries() throws IOException {
    return new Last<>(this.entries.sorted(), key -> {
      int[] at = {0};
      String id = IndexKeys.nameAt(key, at);
      byte[] name = Arrays.copyOf(key, at[0]);
      ByteBuffer b = ByteBuffer.wrap(key);
      return new LastEntry(id, name, b.getInt(at[0]), b.getLong(at[0] + 4),
          slice(key, at[0] + ORDER));
    }, (a, b) -> a.id().equals(b.id()) && a.place() == b.place(), (a, b) -> b);
  }

  @Override
  public void close() throws IOException {
    try {
      tasks.close();
    } finally {
      entries.close();
    }
  }

  // A task's sort key: its id as a name, the record's sequence and the task's place in it, so
  // that its last snapshot sorts last; then its revision and the task, encoded without a lease.
  private static byte[] taskKey(long sequence, int ordinal, Task task, int revision) {
    byte[] name = IndexKeys.name(task.id());
    byte[] value = TaskValues.encode(TaskIndex.withoutLease(task));
    return ByteBuffer.allocate(name.length + ORDER + REVISION + value.length).put(name)
        .putLong(sequence).putInt(ordinal).putInt(revision).put(value).array();
  }

  // A purge's sort key: a task's, with no task after the revision that marks it.
  private static byte[] purgeKey(long sequence, int ordinal, String id) {
    byte[] name = IndexKeys.name(id);
    return ByteBuffer.allocate(name.length + ORDER + REVISION).put(name).putLong(sequence)
        .putInt(ordinal).putInt(PURGED).array();
  }

  // An entry's sort key: the task's id as a name, the entry's place, the record's sequence;
  // then the entry.
  private static byte[] entryKey(long sequence, String id, int place, Transition entry) {
    byte[] name = IndexKeys.name(id);
    byte[] value = TransitionCodec.encode(entry);
    return ByteBuffer.allocate(name.length + ORDER + value.length).put(name).putInt(place)
        .putLong(sequence).put(value).array();
  }

  /** Sorted items with each run of equal ones folded into its last. */
  static final class Last<T> implements AutoCloseable {

    private final KeySorter.Sorted keys;
    private final Function<byte[], T> decode;
    private final BiPredicate<T, T> same;
    private final BinaryOperator<T> then;
    private T next;

    private Last(KeySorter.Sorted keys, Function<byte[], T> decode,
        BiPredicate<T, T> same, BinaryOperator<T> then) throws IOException {
      this.keys = keys;
      this.decode = decode;
      this.same = same;
      this.then = then;
      this.next = keys.hasNext() ? decode.apply(keys.next()) : null;
    }

    /** The next item, without taking it; null at the end. */
    T peek() {
      return next;
    }

    /** Takes the next item. */
    T take() throws IOException {
      T taken = next;
      next = null;
      while (keys.hasNext()) {
        T following = decode.apply(keys.next());
        if (!same.test(taken, following)) {
          next = following;
          break;
        }
        taken = then.apply(taken, following);
      }
      return taken;
    }

    @Override
    public void close() throws IOException {
      keys.close();
    }
  }

  private static Path spill(Path file, String what) {
    return file.resolveSibling(file.getFileName() + "." + what + ".spill");
  }

  private static byte[] slice(byte[] key, int from) {
    return Arrays.copyOfRange(key, from, key.length);
  }
}

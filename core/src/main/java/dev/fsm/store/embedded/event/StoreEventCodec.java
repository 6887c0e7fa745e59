package dev.fsm.store.embedded.event;

import dev.fsm.store.MachineVersion;
import dev.fsm.task.Lease;
import dev.fsm.task.Pausing;
import dev.fsm.task.Task;
import dev.fsm.task.TaskError;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * fsm's own versioned binary encoding of {@link StoreEvent}s, used for journal records and index
 * values (never MapDB's default serializer, so the format stays under fsm's control). Varints
 * keep a task with a 200-byte context near 260 bytes.
 */
public final class StoreEventCodec {

  /**
   * Bumped when the encoding changes; older versions stay readable. 2: a task ends with its
   * pending pause ({@code pause --after-step}); format 1 tasks have none. 3: then with its last
   * change ({@link Task#changed}); older tasks take it as when they entered their state.
   */
  static final int FORMAT = 3;

  /** The oldest format still read. */
  private static final int OLDEST = 1;

  private static final int CREATED = 1;
  private static final int CHANGED = 2;
  private static final int LEASED = 3;
  private static final int REGISTERED = 4;
  private static final int RESTORED = 5;
  /** Added with purge; a store of an earlier fsm never wrote one, so FORMAT stays 1. */
  private static final int PURGED = 6;
  /** Added with import; like PURGED, a new kind in the same format, so FORMAT stays. */
  private static final int IMPORTED = 7;
  /**
   * A snapshot's task packed as the index keeps it (issue 21), so that a checkpoint copies and a
   * rebuild stores it without inflating or deflating its context; a new kind, like PURGED.
   */
  private static final int PACKED = 8;

  /** Status codes on disk, fixed here rather than taken from enum order. */
  private static final TaskStatus[] STATUS_CODES = {
    null, TaskStatus.RUNNABLE, TaskStatus.SLEEPING, TaskStatus.PAUSED, TaskStatus.FAULT,
    TaskStatus.COMPLETED, TaskStatus.FAILED, TaskStatus.KILLED,
  };

  private StoreEventCodec() {}

  /** The bytes of an event. */
  public static byte[] encode(StoreEvent event) {
    ByteWriter w = new ByteWriter().writeByte(FORMAT);
    if (event instanceof StoreEvent.Created c) {
      w.writeByte(CREATED);
      writeTasks(w, c.tasks());
    } else if (event instanceof StoreEvent.Changed c) {
      w.writeByte(CHANGED);
      writeTask(w, c.task());
      writeTransition(w, c.entry());
      w.writeVarLong(c.historyIndex());
    } else if (event instanceof StoreEvent.Restored r) {
      w.writeByte(RESTORED);
      writeRestored(w, r);
    } else if (event instanceof StoreEvent.Imported i) {
      w.writeByte(IMPORTED).writeVarLong(i.tasks().size());
      for (StoreEvent.Restored r : i.tasks()) {
        writeRestored(w, r);
      }
    } else if (event instanceof StoreEvent.Leased l) {
      w.writeByte(LEASED);
      writeTasks(w, l.tasks());
    } else if (event instanceof StoreEvent.Purged p) {
      w.writeByte(PURGED).writeVarLong(p.ids().size());
      for (String id : p.ids()) {
        w.writeString(id);
      }
    } else if (event instanceof StoreEvent.Registered r) {
      w.writeByte(REGISTERED);
      MachineVersion v = r.version();
      w.writeString(v.machine()).writeString(v.version()).writeVarLong(v.number())
          .writeInstant(v.registered()).writeString(v.definition());
    }
    return w.toBytes();
  }

  /**
   * The event in these bytes.
   *
   * @throws IllegalArgumentException when the bytes are not a whole event of a known format
   */
  public static StoreEvent decode(byte[] bytes) {
    ByteReader r = new ByteReader(bytes);
    int format = readFormat(r);
    int kind = r.readByte();
    StoreEvent event = switch (kind) {
      case CREATED -> new StoreEvent.Created(readTasks(r, format));
      case CHANGED -> readChanged(r, format);
      case RESTORED -> readRestored(r, format);
      case LEASED -> new StoreEvent.Leased(readTasks(r, format));
      case PURGED -> readPurged(r);
      case IMPORTED -> readImported(r, format);
      case PACKED -> unpacked(readPacked(r));
      case REGISTERED -> new StoreEvent.Registered(new MachineVersion(r.readString(),
          r.readString(), r.readVarInt(), r.readInstant(), r.readString()));
      default -> throw new IllegalArgumentException("unknown store record kind " + kind);
    };
    requireEnd(r);
    return event;
  }

  /**
   * The bytes of a snapshot's task record: the task packed ({@link PackedTask}), and its history,
   * each entry as {@link TransitionCodec} encodes it. {@link #decode} gives it as a {@link
   * StoreEvent.Restored}, {@link #decodeSnapshotRecord} as it is.
   */
  public static byte[] encodePacked(String id, byte[] task, List<byte[]> history) {
    ByteWriter w = new ByteWriter().writeByte(FORMAT).writeByte(PACKED).writeString(id)
        .writeBytes(task).writeVarLong(history.size());
    for (byte[] entry : history) {
      w.writeBytes(entry);
    }
    return w.toBytes();
  }

  /**
   * A snapshot record: a packed task left packed, any other record decoded.
   *
   * @throws IllegalArgumentException when the bytes are not a whole event of a known format
   */
  public static SnapshotRecord decodeSnapshotRecord(byte[] bytes) {
    if (bytes.length < 2 || bytes[1] != PACKED) {
      return new SnapshotRecord.Event(decode(bytes));
    }
    ByteReader r = new ByteReader(bytes);
    readFormat(r);
    r.readByte();
    SnapshotRecord.Packed packed = readPacked(r);
    requireEnd(r);
    return packed;
  }

  private static void requireEnd(ByteReader r) {
    if (!r.atEnd()) {
      throw new IllegalArgumentException("store record has bytes after its end");
    }
  }

  /** A record's format, refused when this fsm does not read it. */
  private static int readFormat(ByteReader r) {
    int format = r.readByte();
    if (format < OLDEST || format > FORMAT) {
      throw new IllegalArgumentException("unknown store record format " + format
          + "; this store was written by a newer fsm");
    }
    return format;
  }

  private static SnapshotRecord.Packed readPacked(ByteReader r) {
    String id = r.readString();
    byte[] task = r.readBytes();
    int n = r.readVarInt();
    List<byte[]> history = new ArrayList<>(Math.min(n, 1024));
    for (int i = 0; i < n; i++) {
      history.add(r.readBytes());
    }
    return new SnapshotRecord.Packed(id, task, history);
  }

  private static StoreEvent.Restored unpacked(SnapshotRecord.Packed p) {
    List<Transition> history = new ArrayList<>(p.history().size());
    for (byte[] entry : p.history()) {
      history.add(TransitionCodec.decode(entry));
    }
    return new StoreEvent.Restored(PackedTask.decode(p.id(), p.task()), history);
  }

  /** The bytes of one task, for index values. */
  public static byte[] encodeTask(Task task) {
    ByteWriter w = new ByteWriter().writeByte(FORMAT);
    writeTask(w, task);
    return w.toBytes();
  }

  /** The task in bytes written by {@link #encodeTask}. */
  public static Task decodeTask(byte[] bytes) {
    ByteReader r = new ByteReader(bytes);
    int format = r.readByte();
    if (format < OLDEST || format > FORMAT) {
      throw new IllegalArgumentException("unknown task record format " + format);
    }
    Task task = readTask(r, format);
    if (!r.atEnd()) {
      throw new IllegalArgumentException("task record has bytes after its end");
    }
    return task;
  }

  private static StoreEvent.Changed readChanged(ByteReader r, int format) {
    Task task = readTask(r, format);
    Transition entry = readTransition(r);
    int historyIndex = r.readVarInt();
    // Before format 3 the task did not say when it changed; its entry always did.
    return new StoreEvent.Changed(format < 3 ? task.withChanged(entry.time()) : task, entry,
        historyIndex);
  }

  private static StoreEvent.Restored readRestored(ByteReader r, int format) {
    Task task = readTask(r, format);
    int n = r.readVarInt();
    List<Transition> history = new ArrayList<>(Math.min(n, 1024));
    for (int i = 0; i < n; i++) {
      history.add(readTransition(r));
    }
    return new StoreEvent.Restored(task, history);
  }

  private static void writeRestored(ByteWriter w, StoreEvent.Restored r) {
    writeTask(w, r.task());
    w.writeVarLong(r.history().size());
    for (Transition t : r.history()) {
      writeTransition(w, t);
    }
  }

  private static StoreEvent.Imported readImported(ByteReader r, int format) {
    int n = r.readVarInt();
    List<StoreEvent.Restored> tasks = new ArrayList<>(Math.min(n, 1024));
    for (int i = 0; i < n; i++) {
      tasks.add(readRestored(r, format));
    }
    return new StoreEvent.Imported(tasks);
  }

  private static StoreEvent.Purged readPurged(ByteReader r) {
    int n = r.readVarInt();
    List<String> ids = new ArrayList<>(Math.min(n, 4096));
    for (int i = 0; i < n; i++) {
      ids.add(r.readString());
    }
    return new StoreEvent.Purged(ids);
  }

  private static void writeTasks(ByteWriter w, List<Task> tasks) {
    w.writeVarLong(tasks.size());
    for (Task t : tasks) {
      writeTask(w, t);
    }
  }

  private static List<Task> readTasks(ByteReader r, int format) {
    int n = r.readVarInt();
    List<Task> tasks = new ArrayList<>(Math.min(n, 1024));
    for (int i = 0; i < n; i++) {
      tasks.add(readTask(r, format));
    }
    return tasks;
  }

  private static void writeTask(ByteWriter w, Task t) {
    w.writeString(t.id()).writeString(t.machine()).writeString(t.version())
        .writeString(t.state()).writeByte(statusCode(t.status())).writeString(t.context())
        .writeVarLong(t.attempt()).writeVarLong(t.errors().size());
    Instant base = t.created();
    w.writeInstant(base);
    for (TaskError e : t.errors()) {
      w.writeInstantFrom(base, e.time()).writeString(e.message());
    }
    w.writeInstantFrom(base, t.stateEntered()).writeInstantFrom(base, t.lastAttempt())
        .writeInstantFrom(base, t.due());
    if (t.lease() == null) {
      w.writeByte(0);
    } else {
      w.writeByte(1).writeString(t.lease().owner()).writeInstantFrom(base, t.lease().until());
    }
    Pausing p = t.pausing();
    if (p == null) {
      w.writeByte(0);
    } else {
      w.writeByte(1).writeInstantFrom(base, p.at()).writeString(p.by()).writeString(p.reason());
    }
    // From the state's entry, which it most often equals: two bytes.
    w.writeInstantFrom(changeBase(t.created(), t.stateEntered()), t.changed());
  }

  private static Instant changeBase(Instant created, Instant stateEntered) {
    return stateEntered != null ? stateEntered : created;
  }

  private static Task readTask(ByteReader r, int format) {
    String id = r.readString();
    String machine = r.readString();
    String version = r.readString();
    String state = r.readString();
    TaskStatus status = status(r.readByte());
    String context = r.readString();
    int attempt = r.readVarInt();
    int errorCount = r.readVarInt();
    Instant created = r.readInstant();
    if (created == null) {
      throw new IllegalArgumentException("task record has no creation time");
    }
    List<TaskError> errors = new ArrayList<>(Math.min(errorCount, 64));
    for (int i = 0; i < errorCount; i++) {
      errors.add(new TaskError(r.readInstantFrom(created), r.readString()));
    }
    Instant stateEntered = r.readInstantFrom(created);
    Instant lastAttempt = r.readInstantFrom(created);
    Instant due = r.readInstantFrom(created);
    Lease lease = r.readByte() == 0 ? null : new Lease(r.readString(), r.readInstantFrom(created));
    Pausing pausing = format < 2 || r.readByte() == 0 ? null
        : new Pausing(r.readInstantFrom(created), r.readString(), r.readString());
    Instant changed = format < 3 ? null : r.readInstantFrom(changeBase(created, stateEntered));
    return new Task(id, machine, version, state, status, context, attempt, errors, created,
        stateEntered, lastAttempt, due, lease, pausing, changed);
  }

  /** A history entry's fields, the one place their order is written ({@link TransitionCodec}). */
  static void writeTransition(ByteWriter w, Transition t) {
    w.writeInstant(t.time()).writeString(t.from()).writeString(t.event()).writeString(t.to())
        .writeVarLong(t.durationMillis()).writeVarLong(t.attempt()).writeString(t.by())
        .writeString(t.reason());
  }

  /** A history entry's fields as {@link #writeTransition} wrote them. */
  static Transition readTransition(ByteReader r) {
    return new Transition(r.readInstant(), r.readString(), r.readString(), r.readString(),
        r.readVarLong(), r.readVarInt(), r.readString(), r.readString());
  }

  /** A status's code on disk, in records and index keys. */
  public static int statusCode(TaskStatus status) {
    for (int i = 1; i < STATUS_CODES.length; i++) {
      if (STATUS_CODES[i] == status) {
        return i;
      }
    }
    throw new IllegalStateException("no code for " + status);
  }

  /** The status with this code on disk. */
  public static TaskStatus status(int code) {
    if (code < 1 || code >= STATUS_CODES.length) {
      throw new IllegalArgumentException("unknown task status code " + code);
    }
    return STATUS_CODES[code];
  }
}

package dev.fsm.store.embedded.index;

import dev.fsm.store.ClaimLimits;
import dev.fsm.store.ErrorEntry;
import dev.fsm.store.ErrorQuery;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.StoreLocation;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.embedded.event.SnapshotRecord;
import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.task.Task;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.mapdb.BTreeMap;
import org.mapdb.DB;
import org.mapdb.DBException;
import org.mapdb.Serializer;
import org.mapdb.serializer.GroupSerializer;
import org.mapdb.serializer.SerializerArrayTuple;

/**
 * The embedded store's index in MapDB (no transactions, explicit serializers, values in fsm's own
 * encoding): current tasks without their leases, the due queue, tasks by group, counts, history
 * and machine versions. A leased task is held out of the due queue ({@code Leases} says which,
 * with each event). Everything can be rebuilt by applying the journal's events in order, and the
 * live store changes tasks only through {@link #apply}, so a rebuild ends where the live index
 * did once every lease has ended, as at every open. Not thread-safe: the store's index lock
 * guards it (see {@code StoreGate}).
 */
public final class TaskIndex implements AutoCloseable {

  /** The index file's name in the store folder. */
  public static final String FILE = StoreLocation.Folder.MAPPED_FILE;

  /**
   * Bumped when the index's layout changes; an index of another format is rebuilt. 7: keys
   * stored as the bytes they add to the key before them ({@link KeySerializer}), task values
   * without their ids (their keys) and deflated when that is shorter ({@link TaskValues}).
   */
  public static final long FORMAT = 7;

  private static final String FORMAT_KEY = "format";
  private static final String CLOSED_AT_KEY = "closedAtJournalRecord";

  /**
   * Keys per B-tree node. MapDB decodes and rewrites a whole node per visit, so smaller nodes
   * would be cheaper per visit, but measured with 200k tasks: nodes of 8 or 16 keys made changes
   * 2-5x slower as trees deepened and emptied nodes piled up; 64 were as fast as 32 and 13%
   * smaller.
   */
  static final int NODE = 64;

  /**
   * Keys the due queue and the groups each keep on the heap, the most recently added: a key
   * stays there until this many were added after it, unless removed first, as most are.
   */
  static final int BUFFERED = 32_768;

  static final String DUE = "due";
  static final String GROUPS = "groups";
  /** Every key is bytes (see {@link IndexKeys}). */
  private static final GroupSerializer<byte[]> KEY = KeySerializer.INSTANCE;

  private final DB db;
  /** The volume under {@link #db}; null for an index opened only to be checked. */
  private final PrivateFileVolume volume;
  private final BTreeMap<byte[], byte[]> tasks;
  /** The due queue's and the groups' sets, whose latest keys stay on the heap a while. */
  private final BufferedKeySet due;
  private final BufferedKeySet members;
  private final TaskQueues queues;
  private final TaskGroups groups;
  private final TaskCreations creations;
  private final TaskHistories history;
  private final MachineVersions versions;
  private final BTreeMap<String, Long> meta;

  /** Encodes the tasks this index stores, remembering the contexts it deflated last. */
  private final TaskValues values = new TaskValues();

  /** Tasks recently read or written, so that a claim's outcome finds its task at once. */
  private final RecentTasks recent = new RecentTasks(8192);

  /** Pages of tasks and of errors, read through the collections above. */
  private final TaskListing listing;

  private TaskIndex(IndexFile file, boolean create) {
    this(file, create, create);
  }

  /**
   * Opens or creates the collections: the tasks, histories, queues and groups as {@code
   * createTasks} says (a rebuild's sinks make them), the rest as {@code create} says.
   */
  private TaskIndex(IndexFile file, boolean create, boolean createTasks) {
    DB db = file.db();
    this.db = db;
    this.volume = file.volume();
    this.meta = map(db.treeMap("meta", Serializer.STRING, Serializer.LONG), create);
    if (create) {
      meta.put(FORMAT_KEY, FORMAT);
    } else {
      // Before any tree is opened: another format's nodes may not even decode.
      checkFormat();
    }
    this.tasks = map(tasksMaker(db), createTasks);
    this.history = new TaskHistories(map(historyMaker(db), createTasks));
    this.due = new BufferedKeySet(set(db, DUE, KEY, createTasks), BUFFERED, true);
    this.members = new BufferedKeySet(set(db, GROUPS, KEY, createTasks), BUFFERED, false);
    this.queues = new TaskQueues(due);
    this.groups = new TaskGroups(members, map(countsMaker(db), createTasks));
    this.creations = new TaskCreations(set(db, TaskCreations.NAME, KEY, createTasks));
    this.versions = new MachineVersions(map(db.treeMap("versions",
        new SerializerArrayTuple(Serializer.STRING, Serializer.INTEGER), Serializer.BYTE_ARRAY),
        create));
    this.listing = new TaskListing(tasks, groups, creations, history, this::get);
  }

  static DB.TreeMapMaker<byte[], byte[]> tasksMaker(DB db) {
    return db.treeMap("tasks", KEY, Serializer.BYTE_ARRAY).maxNodeSize(NODE).counterEnable()
        .valuesOutsideNodesEnable();
  }

  static DB.TreeMapMaker<byte[], byte[]> historyMaker(DB db) {
    return db.treeMap("history", KEY, Serializer.BYTE_ARRAY).maxNodeSize(NODE)
        .valuesOutsideNodesEnable();
  }

  static DB.TreeMapMaker<byte[], Long> countsMaker(DB db) {
    return db.treeMap("counts", KEY, Serializer.LONG);
  }

  /** Reads a snapshot's records, in order, to {@code each}. */
  @FunctionalInterface
  public interface SnapshotSource {
    void read(Consumer<SnapshotRecord> each) throws IOException;
  }

  /**
   * A new index, in a file that does not exist yet, built from a snapshot and the journal after
   * it as a rebuild builds it; see {@link SnapshotLoad}.
   */
  public static TaskIndex fromSnapshot(Path file, SnapshotSource snapshot, JournalTail tail)
      throws IOException {
    return SnapshotLoad.load(file, snapshot, tail, Placement.RUN_BYTES, Placement.MEMBER_BYTES);
  }

  /** The index in {@code file} whose every collection a rebuild's sinks made. */
  static TaskIndex rebuilt(IndexFile file) {
    return new TaskIndex(file, true, false);
  }

  /** A new, empty index in a file that does not exist yet. */
  public static TaskIndex create(Path file) {
    IndexFile opened = IndexFile.open(file);
    try {
      return new TaskIndex(opened, true);
    } catch (RuntimeException | Error e) {
      opened.db().close();
      throw e;
    }
  }

  /** The index in an opened file; fails when a collection is missing. */
  public static TaskIndex open(IndexFile file) {
    return new TaskIndex(file, false);
  }

  /** The index in a file opened to be checked ({@link IndexFile#openToCheck}). */
  public static TaskIndex openToCheck(DB db) {
    return new TaskIndex(new IndexFile(db, null), false);
  }

  /** Tasks or records a bulk load or a rebuild handles between two {@link #settle}s. */
  static final int SETTLE_EVERY = 4096;

  /**
   * Between operations: gives back the memory of mappings the volume has replaced (see {@link
   * PrivateFileVolume#settle}).
   */
  public void settle() {
    if (volume != null) {
      volume.settle();
    }
  }

  /**
   * A cheap check that an index left at a clean close is whole and is the one for a journal that
   * ends at {@code journalSequence}: it touches the first and last tasks and the last entry of
   * every other collection (their fronts may be long chains of emptied nodes).
   *
   * @throws DBException when it is not
   */
  public void check(long journalSequence) {
    checkFormat();
    Long closedAt = meta.get(CLOSED_AT_KEY);
    if (closedAt == null || closedAt != journalSequence) {
      throw new DBException.DataCorruption("it was closed at journal record " + closedAt
          + ", not " + journalSequence);
    }
    long size = tasks.sizeLong();
    long counted = groups.total();
    if (size != counted) {
      throw new DBException.DataCorruption("it holds " + size + " tasks but counts " + counted);
    }

    if (size > 0) {
      decode(tasks.firstEntry());
      decode(tasks.lastEntry());
    }
    queues.check();
    groups.check();
    history.check();
  }

  /**
   * An event to apply, with whether a lease holds each of its tasks (a created event's, in order,
   * or a changed event's one) out of the due queue before and after it; null for none.
   */
  public record Appended(StoreEvent event, boolean[] heldOutBefore, boolean[] heldOutAfter) {

    /** An event none of whose tasks is leased, as in every rebuild. */
    public static Appended unleased(StoreEvent event) {
      return new Appended(event, null, null);
    }

    boolean before(int task) {
      return heldOutBefore != null && heldOutBefore[task];
    }

    boolean after(int task) {
      return heldOutAfter != null && heldOutAfter[task];
    }
  }

  /**
   * Applies one journal or snapshot event as {@link #apply(Appended)} does, no task leased: how
   * a rebuild applies them.
   */
  void apply(StoreEvent event) {
    apply(Appended.unleased(event));
  }

  /**
   * Applies one event, live or during a rebuild. Applying an event again changes nothing more,
   * so a rebuild may replay the journal over a checkpoint that already holds some of its events.
   * Tasks are stored without their leases (the journal holds none since leases left it; older
   * journals' leases ended with their process).
   */
  public void apply(Appended appended) {
    StoreEvent event = appended.event();
    if (event instanceof StoreEvent.Created c) {
      for (int i = 0; i < c.tasks().size(); i++) {
        replaceKeepingTail(c.tasks().get(i), appended.before(i), appended.after(i));
      }
    } else if (event instanceof StoreEvent.Changed c) {
      String id = c.task().id();
      RecentTasks.Entry known = recent.get(id);
      Task stored = replace(c.task(), known, appended.before(0), appended.after(0));
      TaskHistories.Tail tail;
      try {
        tail = history.put(id, c.historyIndex(), c.entry(), known == null ? null : known.tail());
      } catch (RuntimeException | Error e) {
        recent.forget(id);
        throw e;
      }
      recent.stored(stored, tail);
    } else if (event instanceof StoreEvent.Restored r) {
      restore(r);
    } else if (event instanceof StoreEvent.Imported i) {
      i.tasks().forEach(this::restore);
    } else if (event instanceof StoreEvent.Purged p) {
      p.ids().forEach(this::remove);
    } else if (event instanceof StoreEvent.Registered r) {
      versions.put(r);
    }
  }

  /** A task with its whole history, as a snapshot or an import holds it. */
  private void restore(StoreEvent.Restored r) {
    String id = r.task().id();
    replaceKeepingTail(r.task(), false, false);
    for (int i = 0; i < r.history().size(); i++) {
      history.put(id, i, r.history().get(i));
    }
    recent.forget(id);
  }

  /**
   * Deletes a purged task from every collection: the tasks, the due queue, its group and count,
   * the creation order, its history and the recent tasks. Gone already (a replay), nothing.
   */
  private void remove(String id) {
    Task previous = get(id);
    recent.forget(id);
    if (previous == null) {
      return;
    }
    tasks.remove(IndexKeys.id(id));
    if (TaskQueues.scheduled(previous)) {
      queues.remove(previous);
    }
    groups.remove(previous);
    creations.remove(previous);
    history.remove(id);
  }

  /** A task's newest history entry, or null when it has none. */
  public Transition lastEntry(String id) {
    return history.last(id);
  }

  /** The task as the index stores it, without a lease; null when there is no such task. */
  public Task get(String id) {
    RecentTasks.Entry known = recent.get(id);
    if (known != null) {
      return known.task();
    }
    byte[] key = IndexKeys.id(id);
    byte[] bytes = tasks.get(key);
    if (bytes == null) {
      return null;
    }
    Task t = decode(key, bytes);
    recent.stored(t);
    return t;
  }

  /**
   * One page of {@link dev.fsm.store.Store#errors}; see {@link TaskListing#errors}.
   *
   * @return the last id examined, where the next page starts; null when no task is left
   */
  public String errors(ErrorQuery query, String machine, String afterId, int limit,
      long budgetNanos, Consumer<ErrorEntry> each) {
    return listing.errors(query, machine, afterId, limit, budgetNanos, each);
  }

  /** The machines that have tasks, in name order. */
  public List<String> machinesWithTasks() {
    TreeSet<String> names = new TreeSet<>();
    for (TaskCount c : groups.counts()) {
      names.add(c.machine());
    }
    return List.copyOf(names);
  }

  /** The most due tasks one claim passes over before it gives up looking further. */
  public static final int PASSED_OVER = 200_000;
  /** How many tasks it holds. */
  public long size() {
    return tasks.sizeLong();
  }

  public boolean contains(String id) {
    return tasks.containsKey(IndexKeys.id(id));
  }

  /**
   * Up to {@code max} tasks in the due queue by {@code now} and passing {@code claimable}, oldest
   * due first, as stored (without leases). It passes over at most {@value #PASSED_OVER} tasks
   * (those a concurrency cap or an open breaker holds back), so one claim's work is bounded: due
   * tasks behind more held-back ones than that wait until the ones ahead start.
   */
  public List<Task> claimable(int max, Instant now, Predicate<Task> claimable) {
    List<Task> found = new ArrayList<>();
    if (max <= 0) {
      return found;
    }
    int passedOver = 0;
    for (String id : queues.dueBy(now)) {
      Task t = get(id);
      if (claimable.test(t)) {
        found.add(t);
        if (found.size() == max) {
          break;
        }
      } else if (++passedOver == PASSED_OVER) {
        break;
      }
    }
    return found;
  }

  /**
   * As {@link #claimable(int, Instant, Predicate)}, passing over the tasks {@code budget} has no
   * room for without reading them ({@link GroupHeads}); {@code claimable} takes a task from the
   * budget when it accepts it.
   */
  public List<Task> claimable(int max, Instant now, ClaimLimits.Budget budget,
      Predicate<Task> claimable) {
    if (max <= 0) {
      return new ArrayList<>();
    }
    return queues.heads(this::get).claimable(max, now, budget, claimable, this::get);
  }

  /** Takes a task out of the due queue, if it is scheduled, as a new lease holds it out. */
  public void unqueue(Task t) {
    if (TaskQueues.scheduled(t)) {
      queues.remove(t);
    }
  }

  /** Puts a task back in the due queue, if it is scheduled, as its lease has ended. */
  public void requeue(String id) {
    Task t = get(id);
    if (t != null && TaskQueues.scheduled(t)) {
      queues.add(t);
    }
  }

  /** The first due time among the groups {@code budget} has room for ({@link GroupHeads}). */
  public Optional<Instant> nextDue(ClaimLimits.Budget budget) {
    return Optional.ofNullable(queues.heads(this::get).first(budget, this::get));
  }

  /** The first due time in the due queue. */
  public Optional<Instant> nextDue() {
    return Optional.ofNullable(queues.next());
  }

  /** A page of tasks matching the query, in the query's order. */
  public List<Task> list(TaskQuery query) {
    return listing.list(query);
  }

  /**
   * The ids {@link #list} gives for a query in id order with a filter, without reading the
   * tasks; empty for any other query.
   */
  public Optional<List<String>> ids(TaskQuery query) {
    return listing.ids(query);
  }

  /** Up to {@code limit} task ids starting with {@code prefix}, in order. */
  public List<String> idsStartingWith(String prefix, int limit) {
    List<String> ids = new ArrayList<>();
    byte[] start = IndexKeys.id(prefix);
    for (byte[] id : tasks.tailMap(start, true).keySet()) {
      if (ids.size() >= limit || !IndexKeys.startsWith(id, start)) {
        break;
      }
      ids.add(IndexKeys.idAt(id, 0));
    }
    return ids;
  }

  /** Task counts per machine, state and status, in that order. */
  public List<TaskCount> counts() {
    return groups.counts();
  }

  public List<Transition> history(String id) {
    return history.of(id);
  }

  /** The histories of tasks, keyed and ordered as {@code ids}; an id of no task has none. */
  public Map<String, List<Transition>> histories(List<String> ids) {
    return history.of(ids);
  }

  /** A machine's versions, oldest first. */
  public List<MachineVersion> versions(String machine) {
    return versions.of(machine);
  }

  /** Every machine's versions, by machine and then oldest first. */
  public List<MachineVersion> allVersions() {
    return versions.all();
  }

  /** The id that sorts last, or null when there are no tasks. */
  public String lastTaskId() {
    return tasks.isEmpty() ? null : IndexKeys.idAt(tasks.lastKey(), 0);
  }

  /**
   * The tasks with ids after {@code afterId} (from the first when null) and up to {@code
   * throughId}, in order, each read as the iterator reaches it; use it within one hold of the
   * index's lock.
   */
  public Iterator<Task> tasksBetween(String afterId, String throughId) {
    return new TaskListing.Decoding(between(afterId, throughId));
  }

  private Iterator<Map.Entry<byte[], byte[]>> between(String afterId, String throughId) {
    byte[] through = IndexKeys.id(throughId);
    return (afterId == null ? tasks.headMap(through, true).entrySet()
        : tasks.subMap(IndexKeys.id(afterId), false, through, true).entrySet()).iterator();
  }

  /**
   * As {@link #tasksBetween}, each task with its history as a snapshot record keeps them: packed
   * as this index stores it, so that a checkpoint neither inflates nor deflates contexts. Each
   * task and entry is still decoded whole, so that damage in the index stops the checkpoint
   * rather than reaching the snapshot.
   */
  public Iterator<SnapshotRecord.Packed> packedBetween(String afterId, String throughId) {
    Iterator<Map.Entry<byte[], byte[]>> entries = between(afterId, throughId);
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return entries.hasNext();
      }

      @Override
      public SnapshotRecord.Packed next() {
        Map.Entry<byte[], byte[]> e = entries.next();
        // Decoded only to be checked: a value of this format holds no lease, as every writer
        // of it leaves the lease out.
        String id = decode(e.getKey(), e.getValue()).id();
        return new SnapshotRecord.Packed(id, e.getValue(), history.encodedOf(id));
      }
    };
  }

  /** Throws when the index is of another format than this fsm's, which it then rebuilds. */
  private void checkFormat() {
    if (!Long.valueOf(FORMAT).equals(meta.get(FORMAT_KEY))) {
      throw new DBException.DataCorruption("it is in index format " + meta.get(FORMAT_KEY)
          + ", not " + FORMAT);
    }
  }

  /**
   * Notes the journal record this index reflects; done just before a clean close, once every
   * lease has ended and put its task back in the due queue, as a rebuild would have it.
   */
  public void markClosedAt(long journalSequence) {
    flush();
    groups.save();
    meta.put(CLOSED_AT_KEY, journalSequence);
  }

  /**
   * Writes what waits on the heap (keys of the due queue and groups, tasks' last history chunks)
   * to MapDB, as the file must have it at a clean close.
   */
  private void flush() {
    due.flush();
    members.flush();
    history.flush();
  }

  /** Forgets the clean close: from now on this index may run ahead of the journal. */
  public void markInUse() {
    meta.remove(CLOSED_AT_KEY);
  }

  @Override
  public void close() {
    db.close();
  }

  /** A task's value in the task map, kept under the key {@link IndexKeys#id}. */
  public static byte[] encode(Task t) {
    return TaskValues.encode(t);
  }

  /** A task from the index's entry for it. */
  static Task decode(Map.Entry<byte[], byte[]> entry) {
    return decode(entry.getKey(), entry.getValue());
  }

  /**
   * A task from the index: its key and value in the task map, without a lease (an index built
   * before leases left it has some).
   */
  public static Task decode(byte[] key, byte[] value) {
    try {
      return withoutLease(TaskValues.decode(key, value));
    } catch (IllegalArgumentException e) {
      throw new DBException.DataCorruption("a task record in the index is damaged: "
          + e.getMessage());
    }
  }

  /** The task without a lease, as the journal and the index keep it. */
  public static Task withoutLease(Task t) {
    return t.lease() == null ? t : t.withLease(null);
  }

  /** As {@link #replace}, noting the task as recent with the history tail known before. */
  private void replaceKeepingTail(Task next, boolean wasOut, boolean isOut) {
    RecentTasks.Entry known = recent.get(next.id());
    Task stored = replace(next, known, wasOut, isOut);
    recent.stored(stored, known == null ? null : known.tail());
  }

  /**
   * Stores a task's next snapshot, without its lease, and moves it in the due queue and groups;
   * the same B-tree visit that stores it gives what it replaces, unless {@code known}, the
   * task's recent entry (null: none), has it. {@code wasOut} and {@code isOut} say whether a
   * lease holds it out of the due queue before and after. Gives the task as stored, for the
   * caller to note as recent; on a failure the task is no longer among the recent ones.
   */
  private Task replace(Task next, RecentTasks.Entry known, boolean wasOut, boolean isOut) {
    Task stored = withoutLease(next);
    byte[] key = IndexKeys.id(stored.id());
    try {
      byte[] old = tasks.put(key, values.encodeRemembering(stored));
      place(old == null ? null : known != null ? known.task() : decode(key, old), wasOut, stored,
          isOut);
    } catch (RuntimeException | Error e) {
      recent.forget(stored.id());
      throw e;
    }
    return stored;
  }

  /**
   * Moves a task from where its previous snapshot was in the due queue (unless a lease held it
   * out) and the groups to where the next one goes.
   */
  private void place(Task previous, boolean wasOut, Task next, boolean isOut) {
    boolean wasQueued = previous != null && !wasOut && TaskQueues.scheduled(previous);
    boolean isQueued = !isOut && TaskQueues.scheduled(next);
    boolean sameSlot = wasQueued && isQueued && previous.due().equals(next.due());
    if (wasQueued && !sameSlot) {
      queues.remove(previous);
    }
    if (isQueued && !sameSlot) {
      queues.add(next);
    }
    groups.move(previous, next);
    creations.move(previous, next);
  }

  /** How many history entries the task has: the place of its next one. */
  public int historyLength(String id) {
    RecentTasks.Entry known = recent.get(id);
    if (known != null && known.historyLength() >= 0) {
      return known.historyLength();
    }
    TaskHistories.Tail tail = history.tail(id);
    recent.tail(id, tail);
    return tail.length();
  }


  private static <K, V> BTreeMap<K, V> map(DB.TreeMapMaker<K, V> maker, boolean create) {
    return create ? maker.create() : maker.open();
  }

  private static <E> NavigableSet<E> set(DB db, String name, GroupSerializer<E> serializer,
      boolean create) {
    DB.TreeSetMaker<E> maker = db.treeSet(name, serializer).maxNodeSize(NODE);
    return create ? maker.create() : maker.open();
  }

  /**
   * Every collection of the index by name, for comparing two indexes entry by entry. The group
   * counts, which live on the heap and reach MapDB only at a clean close, appear as a sorted map
   * of "machine/state/status" to count.
   */
  public SortedMap<String, Object> collections() {
    flush();
    SortedMap<String, Object> all = new TreeMap<>();
    for (String name : db.getAllNames()) {
      if (!name.equals("meta") && !name.equals("counts")) {
        all.put(name, db.get(name));
      }
    }
    SortedMap<String, Long> counted = new TreeMap<>(Comparator.naturalOrder());
    for (TaskCount c : groups.counts()) {
      counted.put(c.machine() + "/" + c.state() + "/" + c.status().word(), c.count());
    }
    all.put("counts", counted);
    return all;
  }
}

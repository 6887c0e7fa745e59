package dev.fsm.store.embedded.index;

import static dev.fsm.store.embedded.index.IndexLayout.KEY;
import static dev.fsm.store.embedded.index.IndexLayout.map;
import static dev.fsm.store.embedded.index.IndexLayout.set;

import dev.fsm.store.ChangeOrder;
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
import org.mapdb.serializer.SerializerArrayTuple;

/**
 * The embedded store's index in MapDB (no transactions, explicit serializers, values in fsm's own
 * encoding): current tasks without their leases, the due queue, tasks by group, counts, history
 * and machine versions. A leased task is held out of the due queue ({@code Leases} says which,
 * with each event). Everything can be rebuilt by applying the journal's events in order, and the
 * live store changes tasks only through {@link #apply}, so a rebuild ends where the live index
 * did once every lease has ended, as at every open. Not thread-safe: the store's index lock
 * guards it (see {@code StoreGate}).
 *
 * <p>This class holds the collections and answers the store; the file's layout is {@link
 * IndexLayout}, its format and clean-close mark {@link IndexMeta}, applying events {@link
 * TaskChanges}, claims' walk of the due queue {@link TaskQueues}, pages {@link TaskListing}.
 */
public final class TaskIndex implements AutoCloseable {

  /** The index file's name in the store folder. */
  public static final String FILE = StoreLocation.Folder.MAPPED_FILE;

  /**
   * Keys the due queue and the groups each keep on the heap, the most recently added: a key
   * stays there until this many were added after it, unless removed first, as most are.
   */
  static final int BUFFERED = 32_768;

  /** Changes kept in order for {@link #recentlyChanged}: a few screens of any filter. */
  public static final int CHANGES_KEPT = 16_384;


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
  private final IndexMeta meta;
  /** Applies events to the collections above. */
  private final TaskChanges changes;

  /** Encodes the tasks this index stores, remembering the contexts it deflated last. */
  private final TaskValues values = new TaskValues();

  /** Tasks recently read or written, so that a claim's outcome finds its task at once. */
  private final RecentTasks recent = new RecentTasks(8192);

  /** The newest changes applied since the index was opened, in order (memory only). */
  private final ChangeOrder order = new ChangeOrder(CHANGES_KEPT);

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
    this.meta = new IndexMeta(
        map(db.treeMap("meta", Serializer.STRING, Serializer.LONG), create));
    if (create) {
      meta.stamp();
    } else {
      // Before any tree is opened: another format's nodes may not even decode.
      meta.checkFormat();
    }
    this.tasks = map(IndexLayout.tasksMaker(db), createTasks);
    this.history = new TaskHistories(map(IndexLayout.historyMaker(db), createTasks));
    this.due = new BufferedKeySet(set(db, IndexLayout.DUE, KEY, createTasks), BUFFERED, true);
    this.members =
        new BufferedKeySet(set(db, IndexLayout.GROUPS, KEY, createTasks), BUFFERED, false);
    this.queues = new TaskQueues(due);
    this.groups = new TaskGroups(members, map(IndexLayout.countsMaker(db), createTasks));
    this.creations = new TaskCreations(set(db, TaskCreations.NAME, KEY, createTasks));
    this.versions = new MachineVersions(map(db.treeMap("versions",
        new SerializerArrayTuple(Serializer.STRING, Serializer.INTEGER), Serializer.BYTE_ARRAY),
        create));
    this.listing = new TaskListing(tasks, groups, creations, history, this::get);
    this.changes = new TaskChanges(tasks, history, queues, groups, creations, versions, values,
        recent, order, this::get);
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
    meta.checkFormat();
    meta.checkClosedAt(journalSequence);
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
    changes.apply(appended);
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

  /** How many tasks it holds. */
  public long size() {
    return tasks.sizeLong();
  }

  public boolean contains(String id) {
    return tasks.containsKey(IndexKeys.id(id));
  }

  /** See {@link TaskQueues#claimable}: as stored, without leases. */
  public List<Task> claimable(int max, Instant now, Predicate<Task> claimable) {
    return queues.claimable(max, now, this::get, claimable);
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

  /** See {@link dev.fsm.store.Store#recentlyChanged}: among changes applied since opened. */
  public List<Task> recentlyChanged(TaskQuery filter) {
    return order.newestTasks(filter, this::get);
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
    return listing.idsStartingWith(prefix, limit);
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
    return listing.tasksBetween(afterId, throughId);
  }

  /** See {@link TaskListing#packedBetween}. */
  public Iterator<SnapshotRecord.Packed> packedBetween(String afterId, String throughId) {
    return listing.packedBetween(afterId, throughId);
  }

  /**
   * Notes the journal record this index reflects; done just before a clean close, once every
   * lease has ended and put its task back in the due queue, as a rebuild would have it.
   */
  public void markClosedAt(long journalSequence) {
    flush();
    groups.save();
    meta.closedAt(journalSequence);
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
    meta.inUse();
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

package dev.fsm.store.embedded.index;

import dev.fsm.store.ErrorEntry;
import dev.fsm.store.ErrorQuery;
import dev.fsm.store.TaskPages;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.embedded.event.SnapshotRecord;
import dev.fsm.task.Task;
import dev.fsm.task.Transition;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import org.mapdb.BTreeMap;

/**
 * The index's pages: tasks matching a query in its order, and the attempt errors in the
 * histories of a machine's tasks. Each order reads the collection that keeps it (the task map
 * for ids, the creation order, the groups for filters) and only as much of it as a page needs.
 */
final class TaskListing {

  private final BTreeMap<byte[], byte[]> tasks;
  private final TaskGroups groups;
  private final TaskCreations creations;
  private final TaskHistories history;
  /** A task by id, as the index stores it (through its recent tasks); null when none. */
  private final Function<String, Task> get;

  TaskListing(BTreeMap<byte[], byte[]> tasks, TaskGroups groups, TaskCreations creations,
      TaskHistories history, Function<String, Task> get) {
    this.tasks = tasks;
    this.groups = groups;
    this.creations = creations;
    this.history = history;
    this.get = get;
  }

  /** Up to {@code limit} task ids starting with {@code prefix}, in order. */
  List<String> idsStartingWith(String prefix, int limit) {
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

  /**
   * The tasks with ids after {@code afterId} (from the first when null) and up to {@code
   * throughId}, in order, each read as the iterator reaches it; use it within one hold of the
   * index's lock.
   */
  Iterator<Task> tasksBetween(String afterId, String throughId) {
    return new Decoding(between(afterId, throughId));
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
  Iterator<SnapshotRecord.Packed> packedBetween(String afterId, String throughId) {
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
        String id = TaskIndex.decode(e.getKey(), e.getValue()).id();
        return new SnapshotRecord.Packed(id, e.getValue(), history.encodedOf(id));
      }
    };
  }

  /**
   * One page of {@link dev.fsm.store.Store#errors}: the attempt errors {@code query} matches in
   * the histories of tasks of {@code machine} with ids after {@code afterId} (from the first
   * when null), to {@code each}: up to {@code limit} tasks, or fewer once {@code budgetNanos}
   * have passed. Tasks are found through their groups, which know their machine, so no task is
   * read.
   *
   * @return the last id examined, where the next page starts; null when no task is left
   */
  String errors(ErrorQuery query, String machine, String afterId, int limit,
      long budgetNanos, Consumer<ErrorEntry> each) {
    long start = System.nanoTime();
    List<String> ids = groups.ids(new TaskQuery(Optional.of(machine), Optional.empty(), Set.of(),
        Optional.ofNullable(afterId), limit, TaskQuery.Order.ASCENDING, TaskQuery.Sort.ID));
    String last = null;
    for (String id : ids) {
      for (Transition t : history.since(id, query.since())) {
        if (query.matches(t)) {
          each.accept(new ErrorEntry(id, machine, t));
        }
      }
      last = id;
      if (System.nanoTime() - start > budgetNanos) {
        return last;
      }
    }
    return ids.size() < limit ? null : last;
  }

  /** A page of tasks matching the query, in the query's order. */
  List<Task> list(TaskQuery query) {
    Task cursor = null;
    if (query.afterKey().isPresent()) {
      cursor = query.keyCursor().orElseThrow();
    } else if (query.sort() != TaskQuery.Sort.ID && query.afterId().isPresent()) {
      cursor = get.apply(query.afterId().get());
      if (cursor == null) {
        return new ArrayList<>();
      }
    }
    return switch (query.sort()) {
      case ID -> listById(query);
      case CREATED -> fewMatch(query) ? TaskPages.page(matching(query), query, cursor)
          : creations.page(query, cursor, get);
      // No index keeps this order (it changes with every step): one pass, a page kept.
      case UPDATED -> TaskPages.page(() -> new Decoding(tasks.entrySet().iterator()), query,
          cursor);
    };
  }

  /**
   * True when filters leave so few tasks that reading them all through their groups costs less
   * than walking the creation order until a page of them turns up: with m of n tasks matching
   * evenly, that walk reads about limit * n / m entries, the groups m.
   */
  private boolean fewMatch(TaskQuery query) {
    if (query.machine().isEmpty() && query.state().isEmpty() && query.statuses().isEmpty()) {
      return false;
    }
    long m = groups.matching(query);
    return m * m <= (long) query.limit() * tasks.sizeLong();
  }

  /** Every task the query's filters match, through their groups. */
  private List<Task> matching(TaskQuery query) {
    List<Task> all = new ArrayList<>();
    for (String id : groups.ids(new TaskQuery(query.machine(), query.state(), query.statuses(),
        Optional.empty(), Integer.MAX_VALUE, TaskQuery.Order.ASCENDING, TaskQuery.Sort.ID))) {
      all.add(get.apply(id));
    }
    return all;
  }

  private List<Task> listById(TaskQuery query) {
    List<Task> page = new ArrayList<>();
    if (query.machine().isPresent() || query.state().isPresent()
        || !query.statuses().isEmpty()) {
      for (String id : groups.ids(query)) {
        page.add(get.apply(id));
      }
      return page;
    }
    NavigableMap<byte[], byte[]> range = query.afterId().isEmpty() ? tasks
        : query.descending() ? tasks.headMap(IndexKeys.id(query.afterId().get()), false)
        : tasks.tailMap(IndexKeys.id(query.afterId().get()), false);
    Iterable<Map.Entry<byte[], byte[]>> after = query.descending()
        ? range.descendingMap().entrySet() : range.entrySet();
    for (Map.Entry<byte[], byte[]> e : after) {
      page.add(TaskIndex.decode(e));
      if (page.size() == query.limit()) {
        break;
      }
    }
    return page;
  }

  /**
   * The ids {@link #list} gives for a query in id order with a filter, without reading the
   * tasks: their groups know them. Empty for any other query, which {@link #list} serves.
   */
  Optional<List<String>> ids(TaskQuery query) {
    boolean filtered = query.machine().isPresent() || query.state().isPresent()
        || !query.statuses().isEmpty();
    return query.sort() == TaskQuery.Sort.ID && filtered ? Optional.of(groups.ids(query))
        : Optional.empty();
  }

  /** Tasks decoded as an iteration over their stored entries reaches them. */
  record Decoding(Iterator<Map.Entry<byte[], byte[]>> entries)
      implements Iterator<Task> {
    @Override
    public boolean hasNext() {
      return entries.hasNext();
    }

    @Override
    public Task next() {
      return TaskIndex.decode(entries.next());
    }
  }
}

package dev.fsm.store.memory;

import dev.fsm.store.ChangeOrder;
import dev.fsm.store.ClaimLimits;
import dev.fsm.store.ErrorEntry;
import dev.fsm.store.ErrorQuery;
import dev.fsm.store.LeaseLostException;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.PurgeBatch;
import dev.fsm.store.PurgeQuery;
import dev.fsm.store.RunnerRecord;
import dev.fsm.store.Store;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskExistsException;
import dev.fsm.store.TaskNotFoundException;
import dev.fsm.store.TaskPages;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.AfterStep;
import dev.fsm.task.Change;
import dev.fsm.task.Lease;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A store kept in memory, for fast engine tests. Not durable: everything is gone when the process
 * ends, so "on disk" in the {@link Store} contract means "in memory" here. Thread-safe: one lock
 * guards everything, which also makes {@link #update} atomic.
 */
public final class InMemoryStore implements Store {

  /** A place in a time-ordered index. */
  private record Slot(Instant at, String id) {}

  private static final Comparator<Slot> BY_TIME_THEN_ID =
      Comparator.comparing(Slot::at).thenComparing(Slot::id);

  private static final Comparator<TaskCount> COUNT_ORDER = Comparator
      .comparing(TaskCount::machine).thenComparing(TaskCount::state)
      .thenComparing(TaskCount::status);

  private final Object lock = new Object();
  /** The newest changes, in order, for {@link #recentlyChanged}. */
  private final ChangeOrder order = new ChangeOrder(16_384);
  private final TreeMap<String, Task> tasks = new TreeMap<>();
  private final Map<String, List<Transition>> histories = new HashMap<>();
  private final Map<String, List<MachineVersion>> versions = new HashMap<>();
  // Scheduled tasks sit in exactly one of these: unleased ones by due time, leased ones by the end
  // of their lease. A claim moves expired leases back to the due queue, where they keep their
  // place by due time, so claims stay oldest due first and O(log n) each.
  private final NavigableSet<Slot> dueQueue = new TreeSet<>(BY_TIME_THEN_ID);
  private final NavigableSet<Slot> leaseQueue = new TreeSet<>(BY_TIME_THEN_ID);
  private final Map<String, RunnerRecord> runners = new HashMap<>();
  private boolean closed;

  @Override
  public void create(List<Task> batch) {
    synchronized (lock) {
      ensureOpen();
      Set<String> ids = new HashSet<>();
      for (Task t : batch) {
        if (tasks.containsKey(t.id()) || !ids.add(t.id())) {
          throw new TaskExistsException(t.id());
        }
      }
      for (Task t : batch) {
        tasks.put(t.id(), t);
        histories.put(t.id(), new ArrayList<>());
        index(t);
        order.changed(t.id());
      }
    }
  }

  @Override
  public void restore(List<TaskHistory> batch) {
    synchronized (lock) {
      ensureOpen();
      Set<String> ids = new HashSet<>();
      for (TaskHistory h : batch) {
        if (tasks.containsKey(h.task().id()) || !ids.add(h.task().id())) {
          throw new TaskExistsException(h.task().id());
        }
      }
      for (TaskHistory h : batch) {
        Task t = h.task().withLease(null);
        tasks.put(t.id(), t);
        histories.put(t.id(), new ArrayList<>(h.history()));
        index(t);
        order.changed(t.id());
      }
    }
  }

  @Override
  public List<Task> claim(String owner, int max, Instant now, Duration lease,
      ClaimLimits limits) {
    ClaimLimits.Budget budget = limits.budget();
    synchronized (lock) {
      ensureOpen();
      while (!leaseQueue.isEmpty() && !leaseQueue.first().at().isAfter(now)) {
        Slot expired = leaseQueue.pollFirst();
        dueQueue.add(new Slot(tasks.get(expired.id()).due(), expired.id()));
      }
      Lease granted = new Lease(owner, now.plus(lease));
      List<Task> claimed = new ArrayList<>();
      Iterator<Slot> queue = dueQueue.iterator();
      while (claimed.size() < max && queue.hasNext()) {
        Slot slot = queue.next();
        if (slot.at().isAfter(now)) {
          break;
        }
        Task t = tasks.get(slot.id());
        // Only a caller whose clock went back behind a lease an earlier claim saw expire gets here.
        if (!t.claimableAt(now) || !budget.take(t)) {
          continue;
        }
        queue.remove();
        Task held = t.withLease(granted);
        tasks.put(held.id(), held);
        leaseQueue.add(new Slot(granted.until(), held.id()));
        claimed.add(held);
      }
      return claimed;
    }
  }

  @Override
  public Set<String> renew(String owner, Collection<String> ids, Instant until) {
    synchronized (lock) {
      ensureOpen();
      Set<String> lost = new HashSet<>();
      for (String id : ids) {
        Task t = tasks.get(id);
        // No "now" here: a lease that ran out but was not claimed by anyone else is still the
        // owner's to extend, since no other runner can have started the task.
        if (t == null || !t.leaseTakenBy(owner)) {
          lost.add(id);
          continue;
        }
        put(t.withLease(new Lease(owner, until)));
      }
      return lost;
    }
  }

  @Override
  public void record(String owner, Change change) {
    synchronized (lock) {
      ensureOpen();
      String id = change.next().id();
      Task current = tasks.get(id);
      if (current == null) {
        throw new TaskNotFoundException(id);
      }
      if (!current.leasedTo(owner, change.entry().time())) {
        throw new LeaseLostException(id, owner);
      }
      AfterStep.settle(current.pausing(), change).forEach(this::apply);
    }
  }

  @Override
  public Set<String> recordAll(String owner, List<Change> changes) {
    synchronized (lock) {
      ensureOpen();
      Set<String> lost = new LinkedHashSet<>();
      for (Change change : changes) {
        Task current = tasks.get(change.next().id());
        if (current == null || !current.leasedTo(owner, change.entry().time())) {
          lost.add(change.next().id());
        } else {
          AfterStep.settle(current.pausing(), change).forEach(this::apply);
        }
      }
      return lost;
    }
  }

  @Override
  public Task update(String id, Function<Task, Change> change) {
    synchronized (lock) {
      ensureOpen();
      Task current = tasks.get(id);
      if (current == null) {
        throw new TaskNotFoundException(id);
      }
      Change c = change.apply(current).forTask(id);
      apply(c);
      return c.next();
    }
  }

  @Override
  public Optional<Task> get(String id) {
    synchronized (lock) {
      ensureOpen();
      return Optional.ofNullable(tasks.get(id));
    }
  }

  @Override
  public List<Transition> history(String id) {
    synchronized (lock) {
      ensureOpen();
      List<Transition> h = histories.get(id);
      if (h == null) {
        throw new TaskNotFoundException(id);
      }
      return List.copyOf(h);
    }
  }

  @Override
  public void errors(ErrorQuery query, Consumer<ErrorEntry> each) {
    List<ErrorEntry> found = new ArrayList<>();
    synchronized (lock) {
      ensureOpen();
      for (Task t : tasks.values()) {
        List<Transition> h = histories.get(t.id());
        // Newest first, until entries older than the query: histories are in time order.
        for (int i = h.size() - 1; i >= 0 && !h.get(i).time().isBefore(query.since()); i--) {
          if (query.matches(t.machine(), h.get(i))) {
            found.add(new ErrorEntry(t.id(), t.machine(), h.get(i)));
          }
        }
      }
    }
    found.forEach(each);
  }

  @Override
  public List<Task> recentlyChanged(TaskQuery filter) {
    synchronized (lock) {
      ensureOpen();
      return order.newestTasks(filter, tasks::get);
    }
  }

  @Override
  public List<Task> list(TaskQuery query) {
    synchronized (lock) {
      ensureOpen();
      if (query.sort() != TaskQuery.Sort.ID) {
        Task cursor = query.keyCursor().or(() -> query.afterId().map(tasks::get)).orElse(null);
        if (query.afterId().isPresent() && cursor == null) {
          return List.of();
        }
        return TaskPages.page(tasks.values(), query, cursor);
      }
      NavigableMap<String, Task> range = query.afterId().isEmpty() ? tasks
          : query.descending() ? tasks.headMap(query.afterId().get(), false)
          : tasks.tailMap(query.afterId().get(), false);
      Collection<Task> after =
          query.descending() ? range.descendingMap().values() : range.values();
      List<Task> page = new ArrayList<>();
      for (Task t : after) {
        if (query.matchesStored(t)) {
          page.add(t);
          if (page.size() == query.limit()) {
            break;
          }
        }
      }
      return page;
    }
  }

  @Override
  public List<String> idsStartingWith(String prefix, int limit) {
    synchronized (lock) {
      ensureOpen();
      List<String> ids = new ArrayList<>();
      for (String id : tasks.tailMap(prefix, true).keySet()) {
        if (ids.size() >= limit || !id.startsWith(prefix)) {
          break;
        }
        ids.add(id);
      }
      return ids;
    }
  }

  @Override
  public Optional<Instant> nextDue() {
    return nextDue(ClaimLimits.NONE);
  }

  @Override
  public Optional<Instant> nextDue(ClaimLimits limits) {
    ClaimLimits.Budget budget = limits.budget();
    synchronized (lock) {
      ensureOpen();
      Instant due = null;
      for (Slot slot : dueQueue) {
        Task t = tasks.get(slot.id());
        if (budget.hasRoom(t.machine(), t.state())) {
          due = slot.at();
          break;
        }
      }
      Instant lease = leaseQueue.isEmpty() ? null : leaseQueue.first().at();
      if (due == null || (lease != null && lease.isBefore(due))) {
        due = lease;
      }
      return Optional.ofNullable(due);
    }
  }

  @Override
  public List<TaskCount> counts() {
    synchronized (lock) {
      ensureOpen();
      record Group(String machine, String state, TaskStatus status) {}
      Map<Group, Long> groups = new HashMap<>();
      for (Task t : tasks.values()) {
        groups.merge(new Group(t.machine(), t.state(), t.status()), 1L, Long::sum);
      }
      List<TaskCount> counts = new ArrayList<>();
      groups.forEach((g, n) -> counts.add(new TaskCount(g.machine(), g.state(), g.status(), n)));
      counts.sort(COUNT_ORDER);
      return counts;
    }
  }

  @Override
  public MachineVersion register(String machine, String definition, Instant now) {
    synchronized (lock) {
      ensureOpen();
      List<MachineVersion> known = versions.computeIfAbsent(machine, m -> new ArrayList<>());
      MachineVersion added = MachineVersion.next(machine, definition, now, known);
      if (!added.isAfter(known)) {
        return added;
      }
      known.add(added);
      return added;
    }
  }

  @Override
  public List<MachineVersion> versions(String machine) {
    synchronized (lock) {
      ensureOpen();
      return List.copyOf(versions.getOrDefault(machine, List.of()));
    }
  }

  @Override
  public List<MachineVersion> allVersions() {
    synchronized (lock) {
      ensureOpen();
      return versions.keySet().stream().sorted()
          .flatMap(machine -> versions.get(machine).stream()).toList();
    }
  }

  @Override
  public PurgeBatch purge(PurgeQuery query, Instant now) {
    synchronized (lock) {
      long start = System.nanoTime();
      List<Task> candidates = list(query.candidates());
      List<Task> gone = new ArrayList<>();
      for (Task t : candidates) {
        List<Transition> h = histories.get(t.id());
        if (query.matches(t, h.isEmpty() ? null : h.get(h.size() - 1), now)) {
          gone.add(t);
        }
      }
      if (!query.dryRun()) {
        for (Task t : gone) {
          unindex(tasks.remove(t.id()));
          order.removed(t.id());
          histories.remove(t.id());
        }
      }
      Optional<String> resume = candidates.size() < query.batch() ? Optional.empty()
          : Optional.of(candidates.get(candidates.size() - 1).id());
      return new PurgeBatch(PurgeBatch.tally(gone), resume,
          Duration.ofNanos(System.nanoTime() - start));
    }
  }

  @Override
  public void runnerSeen(RunnerRecord runner) {
    synchronized (lock) {
      ensureOpen();
      runners.put(runner.id(), runner);
    }
  }

  @Override
  public List<RunnerRecord> runners(Instant seenSince) {
    synchronized (lock) {
      ensureOpen();
      return runners.values().stream().filter(r -> !r.seen().isBefore(seenSince))
          .sorted(RunnerRecord.ORDER).toList();
    }
  }

  @Override
  public void close() {
    synchronized (lock) {
      closed = true;
    }
  }

  private void apply(Change change) {
    put(change.next());
    histories.get(change.next().id()).add(change.entry());
    order.changed(change.next().id());
  }

  private void put(Task next) {
    Task previous = tasks.put(next.id(), next);
    if (previous != null) {
      unindex(previous);
    }
    index(next);
  }

  private void index(Task t) {
    if (t.due() == null || t.status().isTerminal() || t.status() == TaskStatus.PAUSED) {
      return;
    }
    if (t.lease() != null) {
      leaseQueue.add(new Slot(t.lease().until(), t.id()));
    } else {
      dueQueue.add(new Slot(t.due(), t.id()));
    }
  }

  // A leased task may have moved to the due queue when its lease ran out, so try both.
  private void unindex(Task t) {
    if (t.due() != null) {
      dueQueue.remove(new Slot(t.due(), t.id()));
    }
    if (t.lease() != null) {
      leaseQueue.remove(new Slot(t.lease().until(), t.id()));
    }
  }

  private void ensureOpen() {
    if (closed) {
      throw new IllegalStateException("the store is closed");
    }
  }
}

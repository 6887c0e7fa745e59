package dev.fsm.operations;

import dev.fsm.FsmException;
import dev.fsm.engine.Breaker;
import dev.fsm.engine.Contexts;
import dev.fsm.engine.ErrorGroups;
import dev.fsm.engine.ErrorReport;
import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.OperatorListener;
import dev.fsm.engine.StateStatistics;
import dev.fsm.engine.StateStats;
import dev.fsm.engine.ShownStatuses;
import dev.fsm.engine.Step;
import dev.fsm.engine.TaskIds;
import dev.fsm.model.Machine;
import dev.fsm.store.ErrorQuery;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.Ownership;
import dev.fsm.store.PurgeQuery;
import dev.fsm.store.RunnerRecord;
import dev.fsm.store.Store;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.VersionCount;
import dev.fsm.store.transfer.ExportPage;
import dev.fsm.store.transfer.ExportSource;
import dev.fsm.task.Change;
import dev.fsm.task.Command;
import dev.fsm.task.Commands;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/** {@link Control} over a store this process opened: the rules applied, the changes durable. */
public final class StoreOperations implements Operations {

  /** Who this process's commands come from in a task's history, e.g. {@code user:alice}. */
  public static String localOperator() {
    return "user:" + System.getProperty("user.name", "unknown");
  }

  /**
   * Tasks read from the store at a time: contexts go to 1 MiB each, and a runner, which serves
   * these operations to other commands, runs with a heap of 128 MiB.
   */
  private static final int PAGE = 32;

  /** Characters of contexts one list carries at most. */
  public static final long LIST_CONTEXT_CHARS = 16L << 20;

  private final Store store;
  private final MachineLibrary machines;
  private final Clock clock;
  private final String operator;
  private final OperatorListener listener;
  private final boolean closeStore;
  /**
   * Starts share it, an upgrade takes it alone: a start that registered the old newest version
   * cannot create its tasks after an upgrade's scan went by, leaving them on the old version.
   */
  private final ReadWriteLock versionsLock = new ReentrantReadWriteLock();

  /**
   * A control over {@code store}.
   *
   * @param operator who commands come from, for the history (e.g. {@code user:alice})
   * @param closeStore whether {@link #close} closes the store (false when a runner owns it)
   */
  public StoreOperations(Store store, MachineLibrary machines, Clock clock, String operator,
      OperatorListener listener, boolean closeStore) {
    this.store = store;
    this.machines = machines;
    this.clock = clock;
    this.operator = operator;
    this.listener = listener;
    this.closeStore = closeStore;
  }

  @Override
  public List<Task> start(MachineSource source, List<NewTask> tasks) {
    Instant now = clock.instant();
    Machine machine = machines.read(source.name(), MachineVersion.idOf(source.text()),
        source.text());
    List<String> ids = new ArrayList<>(tasks.size());
    List<String> contexts = new ArrayList<>(tasks.size());
    for (NewTask t : tasks) {
      String id = t.id() == null ? TaskIds.next(now) : TaskIds.checked(t.id());
      ids.add(id);
      contexts.add(t.context() == null ? Contexts.EMPTY
          : Contexts.parse(t.context(), "the context of task `" + id + "`"));
    }
    versionsLock.readLock().lock();
    try {
      return startRegistered(source, tasks, machine, ids, contexts, now);
    } finally {
      versionsLock.readLock().unlock();
    }
  }

  private List<Task> startRegistered(MachineSource source, List<NewTask> tasks, Machine machine,
      List<String> ids, List<String> contexts, Instant now) {
    // Registered first: a rollback's id is only known once the store numbered it.
    MachineVersion version = store.register(source.name(), source.text(), now);
    machines.remember(source.name(), source.file());
    machines.registered(version);
    List<Task> created = new ArrayList<>(tasks.size());
    for (int i = 0; i < tasks.size(); i++) {
      created.add(Step.start(machine, version.version(), ids.get(i), contexts.get(i),
          tasks.get(i).at(), now));
    }
    store.create(created);
    listener.workArrived();
    return created;
  }

  @Override
  public Task send(String id, Command command, SendOptions options) {
    Commands.Request request = request(options);
    String to = options.to();
    Task after = command.takesTo() ? moveState(id, command, request, to)
        : store.update(id, t -> change(t, command, request, to, List.of()));
    listener.commandApplied(after, command);
    if (command.wakesRunner()) {
      listener.workArrived();
    }
    return after;
  }

  @Override
  public BulkSendReport sendAll(TaskSelector selector, Command command, SendOptions options,
      boolean dryRun) {
    int matched = 0;
    List<String> changed = new ArrayList<>();
    List<BulkSendReport.Refusal> refused = new ArrayList<>();
    Commands.Request request = request(options);
    String to = options.to();
    Optional<String> after = Optional.empty();
    while (true) {
      // Without contexts: a command never reads one, and send reads each task again.
      List<Task> page = list(new TaskQuery(Optional.of(selector.machine()),
          selector.state(), selector.statuses(), after, PAGE, TaskQuery.Order.ASCENDING,
          TaskQuery.Sort.ID), false);
      for (Task task : page) {
        matched++;
        try {
          if (dryRun) {
            List<Transition> history = command.takesTo() ? store.history(task.id()) : List.of();
            change(task, command, request, to, history);
          } else {
            send(task.id(), command, options);
          }
          changed.add(task.id());
        } catch (FsmException e) {
          refused.add(new BulkSendReport.Refusal(task.id(), e.getMessage()));
        }
      }
      if (page.size() < PAGE) {
        break;
      }
      after = Optional.of(page.get(page.size() - 1).id());
    }
    return new BulkSendReport(matched, changed, refused, dryRun);
  }

  /**
   * A command that may move the task to another state, which can depend on its history. The
   * history is read ahead of the update; should the task change in between (redriven and ended
   * again by another operator and a runner), the update is computed again from fresh history.
   */
  private Task moveState(String id, Command command, Commands.Request request, String to) {
    for (int tries = 1; ; tries++) {
      List<Transition> history = store.history(id);
      try {
        return store.update(id, t -> {
          Commands.allowed(t, command, request.word(command));
          if (!history.isEmpty() && !history.get(history.size() - 1).to().equals(t.state())) {
            throw new StaleHistory();
          }
          return change(t, command, request, to, history);
        });
      } catch (StaleHistory e) {
        if (tries == 3) {
          throw new FsmException("task `" + id + "` kept changing while `" + command.word()
              + "` was sent; send it again");
        }
      }
    }
  }

  /** The history read ahead of an update no longer ends where the task is. */
  private static final class StaleHistory extends RuntimeException {
    StaleHistory() {
      super(null, null, false, false);
    }
  }

  private Commands.Request request(SendOptions o) {
    return new Commands.Request(o.until(), o.reason() == null ? "" : o.reason(), operator, null,
        o.afterStep(), o.typed());
  }

  /** The command's change; for one that moves the task between states, where to, checked. */
  private Change change(Task task, Command command, Commands.Request request, String to,
      List<Transition> history) {
    if (!command.takesTo()) {
      return Commands.apply(task, command, request.withTo(to), clock.instant());
    }
    Commands.allowed(task, command, request.word(command));
    String state = RedriveTarget.of(task, machines.machine(task.machine(), task.version()),
        history, to);
    return Commands.apply(task, command, request.withTo(state), clock.instant());
  }

  @Override
  public Task signal(String id, String event, String context) {
    Task after = store.update(id, t -> {
      Change c = Step.signal(t, machines.machine(t.machine(), t.version()), event, context,
          clock.instant(), operator);
      return c;
    });
    listener.workArrived();
    return after;
  }

  @Override
  public Optional<Task> get(String id) {
    return store.get(id);
  }

  @Override
  public List<Transition> history(String id) {
    return store.history(id);
  }

  @Override
  public List<Task> list(TaskQuery query, boolean contexts) {
    // Read a few at a time and kept without their contexts when not wanted, so a page of tasks
    // with contexts of up to 1 MiB each never fills the heap of the runner that serves it.
    ShownStatuses shown = splitsRunnable(query.statuses())
        ? new ShownStatuses(store::versions) : null;
    // By updated time no index keeps the order, and each read scans every matching task: one
    // read, then, as many as asked (the store keeps only those in memory as it scans).
    int size = query.sort() == TaskQuery.Sort.UPDATED ? query.limit()
        : Math.min(query.limit(), PAGE);
    if (shown != null) {
      // Some tasks read may show otherwise: at least a page, or a read per task kept.
      size = Math.max(size, PAGE);
    }
    TaskQuery first = query.withLimit(size);
    List<Task> kept = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    long contextChars = 0;
    TaskQuery page = first;
    while (true) {
      List<Task> tasks = store.list(page);
      for (Task t : tasks) {
        // The store selects runnable for both runnable and waiting: keep those shown as asked.
        // A task that moved in the order between two reads comes once.
        if ((shown == null || query.statuses().contains(shown.of(t))) && seen.add(t.id())) {
          if (contexts) {
            contextChars += t.context().length();
            if (contextChars > LIST_CONTEXT_CHARS) {
              throw new FsmException("the " + (kept.size() + 1) + " tasks listed so far hold"
                  + " more than " + (LIST_CONTEXT_CHARS >> 20) + " MiB of contexts, more than"
                  + " one list carries; list fewer (--limit), or read them all with `fsm store"
                  + " export`");
            }
          }
          kept.add(contexts ? t : t.withContext(Contexts.EMPTY));
          if (kept.size() == query.limit()) {
            return kept;
          }
        }
      }
      if (tasks.size() < page.limit()) {
        return kept;
      }
      page = first.after(tasks.get(tasks.size() - 1));
    }
  }

  /** True when the statuses take one of runnable and waiting but not the other. */
  private static boolean splitsRunnable(Set<ShownStatus> statuses) {
    return statuses.contains(ShownStatus.RUNNABLE) != statuses.contains(ShownStatus.WAITING);
  }

  @Override
  public List<String> idsStartingWith(String prefix, int limit) {
    return store.idsStartingWith(prefix, limit);
  }

  @Override
  public List<TaskCount> counts() {
    return store.counts();
  }

  @Override
  public List<StateStats> stats(String machine) {
    return StateStatistics.compute(store, machines, machine);
  }

  @Override
  public ErrorReport errors(ErrorQuery query, int limit) {
    return ErrorGroups.compute(store, query, limit);
  }

  @Override
  public List<MachineVersion> versions(String machine) {
    return store.versions(machine);
  }

  @Override
  public List<MachineVersion> allVersions() {
    return store.allVersions();
  }

  @Override
  public ExportPage exportPage(String after, int limit) {
    return ExportSource.of(store).page(after, limit);
  }

  @Override
  public List<String> takenIds(List<String> ids) {
    return ids.stream().filter(id -> store.get(id).isPresent()).toList();
  }

  @Override
  public MachineVersion importVersion(String machine, String definition, Instant registered) {
    // As an upgrade does: no start registers a version of the machine meanwhile.
    versionsLock.writeLock().lock();
    try {
      MachineVersion version = store.register(machine, definition, registered);
      machines.registered(version);
      return version;
    } finally {
      versionsLock.writeLock().unlock();
    }
  }

  @Override
  public void importTasks(List<TaskHistory> tasks) {
    store.restore(tasks);
    listener.workArrived();
  }

  @Override
  public UpgradeReport upgrade(MachineSource source, boolean dryRun) {
    versionsLock.writeLock().lock();
    try {
      return new UpgradeRun(store, machines, clock, operator, listener).upgrade(source, dryRun);
    } finally {
      versionsLock.writeLock().unlock();
    }
  }

  @Override
  public List<VersionCount> versionCounts(String machine) {
    List<MachineVersion> versions = store.versions(machine);
    if (versions.size() == 1) {
      // Every task is of the one version: the store's counts say it without reading a task
      // (measured: 53 s at 1M tasks by paging through them).
      String only = versions.get(0).version();
      return store.counts().stream().filter(c -> c.machine().equals(machine))
          .sorted(Comparator.comparing(TaskCount::state).thenComparing(TaskCount::status))
          .map(c -> new VersionCount(machine, only, c.state(), c.status(), c.count())).toList();
    }
    Map<List<Object>, Long> counts = new TreeMap<>(Comparator.comparing(Object::toString));
    Optional<String> after = Optional.empty();
    while (true) {
      List<Task> page = store.list(new TaskQuery(Optional.of(machine), Optional.empty(),
          Set.of(), after, PAGE, TaskQuery.Order.ASCENDING, TaskQuery.Sort.ID));
      for (Task t : page) {
        counts.merge(List.of(t.version(), t.state(), t.status()), 1L, Long::sum);
      }
      if (page.size() < PAGE) {
        break;
      }
      after = Optional.of(page.get(page.size() - 1).id());
    }
    List<VersionCount> found = new ArrayList<>(counts.size());
    counts.forEach((k, n) -> found.add(new VersionCount(machine, (String) k.get(0),
        (String) k.get(1), (TaskStatus) k.get(2), n)));
    return found;
  }

  @Override
  public List<String> machineNames() {
    TreeSet<String> names = new TreeSet<>();
    store.counts().forEach(c -> names.add(c.machine()));
    names.addAll(machines.registered(List.copyOf(machines.folderMachines().keySet())));
    return List.copyOf(names);
  }

  @Override
  public List<MachineBreaker> breakers() {
    Instant now = clock.instant();
    List<MachineBreaker> out = new ArrayList<>();
    for (String name : machineNames()) {
      Optional<Breaker> running = listener.breaker(name);
      if (running.isPresent()) {
        Breaker.Status s = running.get().status(now);
        out.add(new MachineBreaker(name, s.phase().word(), s.errorRate(), s.attempts(),
            s.until()));
      } else {
        out.add(hasBreaker(name) ? MachineBreaker.closed(name) : MachineBreaker.none(name));
      }
    }
    return out;
  }

  /** True when the machine's newest version has a breaker. */
  private boolean hasBreaker(String name) {
    List<MachineVersion> versions = store.versions(name);
    if (versions.isEmpty()) {
      return false;
    }
    try {
      return machines.machine(name, versions.get(versions.size() - 1).version()).breaker() != null;
    } catch (FsmException e) {
      return false;
    }
  }

  @Override
  public RunnerReport runners() {
    Instant now = clock.instant();
    List<RunnerRecord> runners = store.runners(now.minus(RunnerRecord.KEPT));
    Set<String> ended = new TreeSet<>();
    if (store.ownership() == Ownership.OWNER_WITH_SOCKET) {
      // Only this process can run on the store now: an earlier owner's runner that did not
      // stop cleanly crashed, even one seen a moment ago.
      long self = ProcessHandle.current().pid();
      runners.stream().filter(r -> !r.stopped() && r.pid() != self)
          .forEach(r -> ended.add(r.id()));
    }
    return new RunnerReport(now, runners, ended);
  }

  @Override
  public PurgeReport purge(PurgeQuery query) {
    return Purges.run(store, query, clock);
  }

  @Override
  public String via() {
    return LOCAL;
  }

  @Override
  public void close() {
    if (closeStore) {
      store.close();
    }
  }
}

package dev.fsm.operations;

import dev.fsm.FsmException;
import dev.fsm.engine.Breaker;
import dev.fsm.engine.BreakerReplay;
import dev.fsm.engine.Contexts;
import dev.fsm.engine.ErrorGroups;
import dev.fsm.engine.ErrorReport;
import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.OperatorListener;
import dev.fsm.engine.StateStatistics;
import dev.fsm.engine.StateStats;
import dev.fsm.engine.Step;
import dev.fsm.engine.TaskIds;
import dev.fsm.model.Machine;
import dev.fsm.store.ErrorQuery;
import dev.fsm.store.AnnouncedBreaker;
import dev.fsm.store.BreakerNews;
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
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.Transition;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/** {@link Control} over a store this process opened: the rules applied, the changes durable. */
public final class StoreOperations implements Operations {

  /** Who this process's commands come from in a task's history, e.g. {@code user:alice}. */
  public static String localOperator() {
    return "user:" + System.getProperty("user.name", "unknown");
  }

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
  private final TaskCommands commands;

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
    this.commands = new TaskCommands(store, machines, clock, operator, listener);
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
    return commands.send(id, command, options);
  }

  @Override
  public BulkSendReport sendAll(TaskSelector selector, Command command, SendOptions options,
      boolean dryRun) {
    return commands.sendAll(selector, command, options, dryRun);
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
    return TaskLists.list(store, query, contexts);
  }

  @Override
  public List<Task> recentlyChanged(TaskQuery filter) {
    return TaskLists.recentlyChanged(store, filter);
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
    return VersionCounting.of(store, machine);
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
      Optional<Breaker> kept = listener.breaker(name);
      Optional<Machine> newest = kept.isPresent() ? Optional.empty() : newestWithBreaker(name);
      if (kept.isPresent()) {
        out.add(shown(name, kept.get(), now));
      } else if (newest.isEmpty()) {
        out.add(MachineBreaker.none(name));
      } else if (listener.keepsBreakers()) {
        // The runner this process is has not needed this machine's breaker yet.
        out.add(MachineBreaker.closed(name));
      } else {
        // No runner here: on PostgreSQL, as the runners last announced it while they hold it
        // open; else as the recent attempts of every runner leave it (since the runners' last
        // close, if they announced one), which is what a runner starting now would hold. Not in
        // a runner, whose metrics ask every few seconds.
        Optional<AnnouncedBreaker> news = announcement(name);
        out.add(heldOpen(name, newest.get(), news, now).orElseGet(() -> shown(name,
            replayed(newest.get(), now, news.filter(a -> !a.news().open())
                .map(AnnouncedBreaker::at).orElse(Instant.MIN)), now)));
      }
    }
    return out;
  }

  private static MachineBreaker shown(String name, Breaker breaker, Instant now) {
    Breaker.Status s = breaker.status(now);
    return new MachineBreaker(name, s.phase().word(), s.errorRate(), s.attempts(), s.until());
  }

  /** The machine's latest breaker news on a shared store, if it keeps one and can be read. */
  private Optional<AnnouncedBreaker> announcement(String name) {
    try {
      return store.breakerNews(name);
    } catch (FsmException e) {
      return Optional.empty();
    }
  }

  /**
   * The breaker as the runners of a shared store last announced it, while that says open (or
   * half-open, once the cooldown ended and a probe may be under way) and is no older than the
   * machine's window past its cooldown: a replay of the histories does not restart its count at
   * each close as the runners' breakers do, so it could show closed what they hold open.
   */
  private static Optional<MachineBreaker> heldOpen(String name, Machine m,
      Optional<AnnouncedBreaker> announced, Instant now) {
    Optional<BreakerNews> news = announced.map(AnnouncedBreaker::news);
    if (news.isEmpty() || !news.get().open() || news.get().until() == null
        || now.isAfter(news.get().until().plus(m.breaker().window()))) {
      return Optional.empty();
    }
    BreakerNews n = news.get();
    boolean open = now.isBefore(n.until());
    return Optional.of(new MachineBreaker(name,
        (open ? Breaker.Phase.OPEN : Breaker.Phase.HALF_OPEN).word(), n.errorRate(),
        n.attempts(), open ? n.until() : null));
  }

  /**
   * The machine's breaker with its attempts since {@code since} and within its window replayed
   * (closed, if they cannot be read).
   */
  private Breaker replayed(Machine m, Instant now, Instant since) {
    try {
      return BreakerReplay.into(new Breaker(m.breaker()), store, m, now, since);
    } catch (FsmException e) {
      return new Breaker(m.breaker());
    }
  }

  /** The machine's newest version, when it has a breaker. */
  private Optional<Machine> newestWithBreaker(String name) {
    List<MachineVersion> versions = store.versions(name);
    if (versions.isEmpty()) {
      return Optional.empty();
    }
    try {
      Machine m = machines.machine(name, versions.get(versions.size() - 1).version());
      return m.breaker() == null ? Optional.empty() : Optional.of(m);
    } catch (FsmException e) {
      return Optional.empty();
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

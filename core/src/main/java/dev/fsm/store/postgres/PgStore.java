package dev.fsm.store.postgres;

import dev.fsm.FsmException;
import dev.fsm.store.AnnouncedBreaker;
import dev.fsm.store.BreakerNews;
import dev.fsm.store.ClaimLimits;
import dev.fsm.store.ErrorEntry;
import dev.fsm.store.ErrorQuery;
import dev.fsm.store.LeaseLostException;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.PurgeBatch;
import dev.fsm.store.PurgeQuery;
import dev.fsm.store.RunnerRecord;
import dev.fsm.store.Store;
import dev.fsm.store.StoreEvents;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskNotFoundException;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Change;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.Transition;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The store in a PostgreSQL schema: a snapshot row per task, an insert-only history table, and
 * many processes on many hosts at once, with no owner. Thread-safe: three connections, each
 * behind its own lock, serve three roles (claims and records; lease renewals; everything else),
 * so a slow operator read never delays a renewal; a fourth, opened on {@link #listen}, hears
 * the store's channel. No pool: a one-shot verb uses one connection.
 */
public final class PgStore implements Store {

  private final PgUrl url;
  private final PgLink run;
  private final PgLink records;
  private final PgLink renewals;
  private final PgLink ops;
  private final PgClaims claims;
  private final PgWrites writes;
  private final PgReads reads;
  private final PgVersions versions;
  private final PgPurge purges;
  private final PgListener listener;
  private final PgBreakers breakers;
  private final PgRunners runners;
  private final Clock clock;

  /** What opening found: the server clock's offset from ours and the schema's version. */
  private record Opened(Duration offset, int version) {}

  private PgStore(PgUrl url, PgLink ops, Opened opened) {
    this.url = url;
    this.ops = ops;
    this.run = new PgLink(url, true);
    this.records = new PgLink(url);
    this.renewals = new PgLink(url, true);
    PgTables tables = PgTables.of(url.schema(), opened.version());
    String origin = UUID.randomUUID().toString();
    this.claims = new PgClaims(tables);
    this.writes = new PgWrites(tables, origin);
    this.reads = new PgReads(tables);
    this.versions = new PgVersions(tables, url.schema());
    this.purges = new PgPurge(tables, reads);
    this.listener = new PgListener(url, tables, origin);
    this.runners = new PgRunners(tables, opened.version());
    this.breakers = new PgBreakers(url.schema(), opened.version());
    // The server's time, ticking in microseconds as the server keeps times.
    this.clock = Clock.tick(Clock.offset(Clock.systemUTC(), opened.offset()),
        Duration.ofNanos(1_000));
  }

  /**
   * Opens the store at {@code url}; with {@code create}, creates or migrates its schema.
   *
   * @throws FsmException when the server cannot be reached or refuses, the schema holds no
   *     store (without {@code create}) or one a newer fsm made
   */
  public static PgStore open(PgUrl url, boolean create) {
    PgLink ops = new PgLink(url);
    try {
      Opened opened = ops.transaction(create ? "create fsm's tables" : "open the store", c -> {
        PgServer.fits(c, url);
        PgSchema.refuseNewer(PgSchema.required(c, url.schema()), url);
        int version = PgSchema.version(c, url.schema());
        if (create && version < PgSchema.NEWEST) {
          PgSchema.migrate(c, url);
          version = PgSchema.NEWEST;
        } else if (version == 0) {
          throw PgSchema.missing(url);
        }
        return new Opened(PgServer.clockOffset(c), version);
      });
      return new PgStore(url, ops, opened);
    } catch (RuntimeException e) {
      ops.close();
      throw e;
    }
  }

  /** Whether the schema at {@code url} holds a store; connects, never creates. */
  static boolean exists(PgUrl url) {
    try (PgLink link = new PgLink(url)) {
      return link.transaction("look for the store", c -> PgSchema.version(c, url.schema()) > 0);
    }
  }

  /** The URL the store was opened with. */
  public PgUrl url() {
    return url;
  }

  @Override
  public void create(List<Task> tasks) {
    ops.transaction("create tasks", c -> {
      writes.create(c, tasks);
      return null;
    });
  }

  @Override
  public void restore(List<TaskHistory> tasks) {
    ops.transaction("restore tasks", c -> {
      writes.restore(c, tasks);
      return null;
    });
  }

  @Override
  public List<Task> claim(String owner, int max, Instant now, Duration lease,
      ClaimLimits limits) {
    return run.statements("claim tasks",
        c -> claims.claim(c, owner, max, now, lease, limits));
  }

  @Override
  public Set<String> renew(String owner, Collection<String> ids, Instant until) {
    return renewals.statements("renew leases", c -> claims.renew(c, owner, ids, until));
  }

  @Override
  public void record(String owner, Change change) {
    Map<String, Boolean> lost = records.transaction("record a step",
        c -> writes.record(c, owner, List.of(change)));
    String id = change.next().id();
    if (lost.containsKey(id)) {
      if (!lost.get(id)) {
        throw new TaskNotFoundException(id);
      }
      throw new LeaseLostException(id, owner);
    }
  }

  @Override
  public Set<String> recordAll(String owner, List<Change> changes) {
    if (changes.isEmpty()) {
      return Set.of();
    }
    Map<String, Boolean> lost = records.transaction("record steps",
        c -> writes.record(c, owner, changes));
    Set<String> ids = new LinkedHashSet<>();
    for (Change ch : changes) {
      if (lost.containsKey(ch.next().id())) {
        ids.add(ch.next().id());
      }
    }
    return ids;
  }

  @Override
  public Task update(String id, Function<Task, Change> change) {
    return ops.transaction("update task `" + id + "`", c -> writes.update(c, id, change));
  }

  @Override
  public Optional<Task> get(String id) {
    return ops.statements("read a task", c -> reads.get(c, id));
  }

  @Override
  public List<Transition> history(String id) {
    return ops.statements("read a history", c -> reads.history(c, id));
  }

  @Override
  public Map<String, List<Transition>> histories(List<String> ids) {
    return ops.statements("read histories", c -> reads.histories(c, ids));
  }

  @Override
  public void errors(ErrorQuery query, Consumer<ErrorEntry> each) {
    // Read whole before any is given out: a broken connection runs the read again.
    ops.statements("read errors", c -> reads.errors(c, query)).forEach(each);
  }

  @Override
  public List<Task> list(TaskQuery query) {
    return ops.statements("list tasks", c -> reads.list(c, query, false));
  }

  @Override
  public List<Task> recentlyChanged(TaskQuery filter) {
    return ops.statements("list recent changes", c -> reads.recentlyChanged(c, filter));
  }

  @Override
  public List<String> idsStartingWith(String prefix, int limit) {
    return ops.statements("complete ids", c -> reads.idsStartingWith(c, prefix, limit));
  }

  @Override
  public Optional<Instant> nextDue() {
    return nextDue(ClaimLimits.NONE);
  }

  @Override
  public Optional<Instant> nextDue(ClaimLimits limits) {
    return run.statements("find the next due time", c -> claims.nextDue(c, limits));
  }

  @Override
  public List<TaskCount> counts() {
    return ops.statements("count tasks", reads::counts);
  }

  @Override
  public MachineVersion register(String machine, String definition, Instant now) {
    return ops.transaction("register machine " + machine,
        c -> versions.register(c, machine, definition, now));
  }

  @Override
  public List<MachineVersion> versions(String machine) {
    return ops.statements("read machine versions", c -> versions.versions(c, machine));
  }

  @Override
  public List<MachineVersion> allVersions() {
    return ops.statements("read machine versions", versions::allVersions);
  }

  @Override
  public PurgeBatch purge(PurgeQuery query, Instant now) {
    return ops.transaction("purge tasks", c -> purges.batch(c, query, now));
  }

  /** On the renewals' link: a tiny statement every few seconds, off the claim and record path. */
  @Override
  public void runnerSeen(RunnerRecord runner) {
    renewals.statements("record the runner's heartbeat", c -> {
      runners.seen(c, runner);
      return null;
    });
  }

  @Override
  public List<RunnerRecord> runners(Instant seenSince) {
    return ops.statements("read the runners", c -> runners.seenSince(c, seenSince));
  }

  @Override
  public Clock clock() {
    return clock;
  }

  @Override
  public void listen(StoreEvents events) {
    listener.add(events);
  }

  @Override
  public void announce(BreakerNews news) {
    ops.statements("tell the other runners about a breaker", c -> {
      writes.announce(c, news);
      breakers.write(c, news);
      return null;
    });
  }

  @Override
  public Optional<AnnouncedBreaker> breakerNews(String machine) {
    return ops.statements("read a machine's breaker", c -> breakers.latest(c, machine));
  }

  /** True once {@link #listen} hears the channel (tests wait for it before notifying). */
  boolean listening() {
    return listener.listening();
  }

  /** The server processes of the store's open connections, for tests that cut them. */
  List<Integer> backendPids() {
    return List.of(run.backendPid(), records.backendPid(), renewals.backendPid(),
        ops.backendPid());
  }

  @Override
  public void close() {
    listener.close();
    run.close();
    records.close();
    renewals.close();
    ops.close();
  }
}

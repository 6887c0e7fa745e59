package dev.fsm.store.embedded;

import dev.fsm.FsmException;
import dev.fsm.files.DiskFailure;
import dev.fsm.store.ClaimLimits;
import dev.fsm.store.ErrorEntry;
import dev.fsm.store.ErrorQuery;
import dev.fsm.store.LeaseLostException;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.Ownership;
import dev.fsm.store.PurgeBatch;
import dev.fsm.store.PurgeQuery;
import dev.fsm.store.RunnerRecord;
import dev.fsm.store.Store;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskExistsException;
import dev.fsm.store.TaskNotFoundException;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.embedded.checkpoint.Checkpoint;
import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.store.embedded.checkpoint.CheckpointReport;
import dev.fsm.store.embedded.checkpoint.Checkpoints;
import dev.fsm.store.embedded.checkpoint.SnapshotCheck;
import dev.fsm.store.embedded.index.IndexFlusher;
import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.store.embedded.journal.Journal;
import dev.fsm.store.embedded.journal.JournalStats;
import dev.fsm.store.embedded.journal.SnapshotFile;
import dev.fsm.store.embedded.owner.StoreInUseException;
import dev.fsm.store.embedded.owner.RunnersFile;
import dev.fsm.store.embedded.owner.StoreLock;
import dev.fsm.store.embedded.recovery.CleanClose;
import dev.fsm.store.embedded.recovery.CleanMarker;
import dev.fsm.store.embedded.recovery.IndexOpening;
import dev.fsm.store.embedded.recovery.OpenReport;
import dev.fsm.store.embedded.repair.RepairFolders;
import dev.fsm.store.embedded.write.Leases;
import dev.fsm.store.embedded.write.Records;
import dev.fsm.store.embedded.write.StoreGate;
import dev.fsm.store.embedded.write.StoreGate.Pending;
import dev.fsm.task.AfterStep;
import dev.fsm.task.Change;
import dev.fsm.task.Lease;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The embedded store (SPEC section 7), kept in a folder: {@code journal/} is the source of truth
 * and {@code index.db}, a MapDB index rebuilt from the journal whenever it may not match it,
 * answers queries and claims. A change is checked and computed under one lock, appended to the
 * journal and applied to the index in that same order; its caller then waits for the group
 * commit that makes it durable outside the lock, so concurrent changes share one fsync.
 */
public final class EmbeddedStore implements Store {

  private final Path folder;
  private final StoreLock owner;
  private final Journal journal;
  private final TaskIndex index;
  private final OpenReport openReport;
  private final Records records;
  private final Leases leases = new Leases();
  private final StoreGate gate;
  private final Checkpoints checkpoints;
  private final IndexFlusher flusher;
  private final RunnersFile runners;
  /** The background check of a snapshot the open did not read; null when none runs. */
  private final SnapshotCheck snapshotCheck;

  private EmbeddedStore(Path folder, StoreLock owner, Journal journal,
      IndexOpening.Opened opened, EmbeddedStoreOptions options) throws IOException {
    this.folder = folder;
    this.owner = owner;
    this.journal = journal;
    this.index = opened.index();
    this.openReport = opened.report();
    this.records = new Records(folder, options.journal().maxRecordBytes());
    this.gate = new StoreGate(folder, journal, index, leases);
    this.checkpoints =
        new Checkpoints(folder, gate, journal, index, options.checkpointBytes());
    this.flusher = IndexFlusher.start(folder.resolve(TaskIndex.FILE));
    this.runners = new RunnersFile(folder);
    Path snapshot = folder.resolve(SnapshotFile.NAME);
    this.snapshotCheck = options.snapshotCheck() != null && !openReport.rebuilt()
        && Files.exists(snapshot)
        ? SnapshotCheck.start(snapshot, this::checkpoint, options.snapshotCheck()) : null;
  }

  /** Opens the store in {@code folder}, creating it when missing, with default options. */
  public static EmbeddedStore open(Path folder) {
    return open(folder, EmbeddedStoreOptions.defaults());
  }

  /**
   * Opens the store in {@code folder}, creating it when missing: takes the folder for this
   * process, opens the journal (cutting a torn tail), and uses or rebuilds the index; {@link
   * #openReport()} says which.
   *
   * @throws StoreInUseException when another process, or this one, has it open
   * @throws dev.fsm.store.embedded.journal.JournalDamagedException when the journal holds
   *     damage that is not a torn tail; nothing on disk is changed then
   */
  public static EmbeddedStore open(Path folder, EmbeddedStoreOptions options) {
    StoreLock owner = StoreLock.acquire(folder, options.purpose(), options.waiting());
    Journal journal = null;
    try {
      RepairFolders.refuseUnfinished(folder);
      // A clean close vouches for every record up to its marker: a journal ending before it
      // lost acknowledged records, so it is refused rather than cut (see JournalRecovery).
      // Its seal, when the journal still holds it, spares decoding every frame.
      Optional<CleanMarker.Contents> marker = CleanMarker.read(folder);
      journal = Journal.open(folder.resolve(Journal.FOLDER), options.journal(),
          marker.map(CleanMarker.Contents::sequence).orElse(0L),
          marker.flatMap(CleanMarker.Contents::seal));
      IndexOpening.Opened opened = IndexOpening.open(folder, journal,
          options.indexOpenTimeout(), options.forceRebuild(), options.progress());
      try {
        return new EmbeddedStore(folder, owner, journal, opened, options);
      } catch (IOException | RuntimeException | Error e) {
        opened.index().close();
        throw e;
      }
    } catch (IOException | RuntimeException | Error e) {
      giveUp(owner, journal);
      throw openFailed(folder, e);
    }
  }

  /**
   * What an open that failed with {@code e} throws: a disk's failure as one line of advice,
   * anything else as it is.
   */
  static RuntimeException openFailed(Path folder, Throwable e) {
    if (e instanceof IOException io) {
      return DiskFailure.of(folder, "cannot open store " + folder, io);
    }
    if (e instanceof FsmException || DiskFailure.advice(folder, e).isEmpty()) {
      if (e instanceof Error error) {
        throw error;
      }
      return (RuntimeException) e;
    }
    return DiskFailure.of(folder, "cannot open store " + folder, e);
  }

  /**
   * Takes a checkpoint now: a snapshot of every task and machine version, after which the
   * journal segments it covers are deleted. The store keeps working meanwhile. Checkpoints also
   * happen by themselves as the journal grows (see {@link EmbeddedStoreOptions#checkpointBytes}).
   */
  public CheckpointReport checkpoint() {
    try {
      return checkpoints.take();
    } catch (IOException e) {
      throw new FsmException("store " + folder + " could not take a checkpoint (" + e + "); no"
          + " change is lost, the journal still holds them all; check the disk has room", e);
    }
  }

  /**
   * Waits until a checkpoint running in the background, if any, has ended: for a benchmark that
   * measures a steady load after a heavy one, whose checkpoint is not the steady load's work.
   */
  public void awaitBackgroundCheckpoint() throws InterruptedException {
    checkpoints.awaitBackground();
  }

  /** What opening found and did: whether the index was used as is or rebuilt, and why. */
  public OpenReport openReport() {
    return openReport;
  }

  @Override
  public void create(List<Task> tasks) {
    durably(() -> {
      Set<String> ids = new HashSet<>();
      for (Task t : tasks) {
        if (index.contains(t.id()) || !ids.add(t.id())) {
          throw new TaskExistsException(t.id());
        }
      }
      return tasks.isEmpty() ? Pending.unchanged(null)
          : gate.commit(null, records.created(tasks));
    });
  }

  /** One journal record holds the whole batch, so a crash keeps all of it or none. */
  @Override
  public void restore(List<TaskHistory> tasks) {
    durably(() -> {
      Set<String> ids = new HashSet<>();
      List<StoreEvent.Restored> restored = new ArrayList<>(tasks.size());
      for (TaskHistory h : tasks) {
        String id = h.task().id();
        if (index.contains(id) || !ids.add(id)) {
          throw new TaskExistsException(id);
        }
        restored.add(new StoreEvent.Restored(h.task().withLease(null), h.history()));
      }
      return tasks.isEmpty() ? Pending.unchanged(null)
          : gate.commit(null, records.imported(restored));
    });
  }

  @Override
  public List<Task> claim(String owner, int max, Instant now, Duration lease,
      ClaimLimits limits) {
    ClaimLimits.Budget budget = limits.budget();
    // Nothing to write: leases live on the heap, since every lease ends with this process.
    return gate.locked(() -> {
      for (String id : leases.endedBy(now)) {
        index.requeue(id);
      }
      Lease granted = new Lease(owner, now.plus(lease));
      List<Task> held = new ArrayList<>();
      // Only a caller whose clock went back behind a lease an earlier claim saw end skips one.
      Predicate<Task> free = t -> leases.attach(t).claimableAt(now);
      List<Task> found = limits.none() ? index.claimable(max, now, free)
          : index.claimable(max, now, budget, t -> free.test(t) && budget.take(t));
      for (Task t : found) {
        index.unqueue(t);
        leases.set(t.id(), granted, index.historyLength(t.id()), t.pausing());
        held.add(t.withLease(granted));
      }
      return held;
    });
  }

  @Override
  public Set<String> renew(String owner, Collection<String> ids, Instant until) {
    return gate.appending(() -> {
      Set<String> lost = new HashSet<>();
      for (String id : ids) {
        Lease held = leases.of(id);
        // No "now" here: a lease that ran out but was not claimed by anyone else is still the
        // owner's to extend, since no other runner can have started the task.
        if (held == null || !held.owner().equals(owner)) {
          lost.add(id);
          continue;
        }
        if (!leases.heldOut(id)) {
          // Its lease had ended and put it back in the due queue: out again.
          TaskIndex upToDate = gate.index();
          upToDate.unqueue(upToDate.get(id));
        }
        leases.set(id, new Lease(owner, until), leases.historyLength(id), leases.pausing(id));
      }
      return lost;
    });
  }

  /**
   * Records an outcome without reading the index (see {@link StoreGate}): the lease, on the
   * heap, says whether the owner holds the task and how long its history is.
   */
  @Override
  public void record(String owner, Change change) {
    durablyCombined(() -> {
      String id = change.next().id();
      if (!holds(owner, change)) {
        if (gate.index().get(id) == null) {
          throw new TaskNotFoundException(id);
        }
        throw new LeaseLostException(id, owner);
      }
      return commitSettled(null, change);
    });
  }

  @Override
  public Set<String> recordAll(String owner, List<Change> changes) {
    return durablyCombined(() -> {
      Set<String> lost = new LinkedHashSet<>();
      Pending<Set<String>> last = Pending.unchanged(lost);
      for (Change change : changes) {
        String id = change.next().id();
        if (!holds(owner, change)) {
          lost.add(id);
        } else {
          // Journal records become durable in order, so waiting for the last waits for all.
          last = commitSettled(lost, change);
        }
      }
      return last;
    });
  }

  /**
   * Under the lock: commits a runner's change to a task it holds, with the task's pending pause
   * applied ({@link AfterStep#settle}); the pause, noted with the lease, needs no index read.
   */
  private <T> Pending<T> commitSettled(T result, Change change) {
    String id = change.next().id();
    int historyIndex = leases.historyLength(id);
    Pending<T> last = null;
    for (Change c : AfterStep.settle(leases.pausing(id), change)) {
      last = gate.commit(result, records.changed(c, historyIndex++));
    }
    return last;
  }

  /** Under the lock: whether {@code owner} holds the changed task's lease at the change's time. */
  private boolean holds(String owner, Change change) {
    Lease held = leases.of(change.next().id());
    return held != null && held.owner().equals(owner) && held.heldAt(change.entry().time());
  }

  @Override
  public Task update(String id, Function<Task, Change> change) {
    return durably(() -> {
      Task current = leases.attach(index.get(id));
      if (current == null) {
        throw new TaskNotFoundException(id);
      }
      Change c = change.apply(current).forTask(id);
      return gate.commit(c.next(), records.changed(c, index.historyLength(id)));
    });
  }

  @Override
  public Optional<Task> get(String id) {
    return gate.locked(() -> Optional.ofNullable(leases.attach(index.get(id))));
  }

  @Override
  public List<Transition> history(String id) {
    return gate.locked(() -> {
      if (!index.contains(id)) {
        throw new TaskNotFoundException(id);
      }
      return index.history(id);
    });
  }

  /** Ids a caller just listed: an id of no task reads as no entries, as the contract allows. */
  @Override
  public Map<String, List<Transition>> histories(List<String> ids) {
    return gate.locked(() -> index.histories(ids));
  }

  /** Among the newest {@value TaskIndex#CHANGES_KEPT} changes applied since it was opened. */
  @Override
  public List<Task> recentlyChanged(TaskQuery filter) {
    return gate.locked(() -> {
      List<Task> found = index.recentlyChanged(filter);
      found.replaceAll(leases::attach);
      return found;
    });
  }

  @Override
  public List<Task> list(TaskQuery query) {
    return gate.locked(() -> {
      List<Task> page = index.list(query);
      page.replaceAll(leases::attach);
      return page;
    });
  }

  @Override
  public List<String> ids(TaskQuery query) {
    Optional<List<String>> ids = gate.locked(() -> index.ids(query));
    return ids.orElseGet(() -> Store.super.ids(query));
  }

  /** Most tasks whose histories one hold of the store's lock reads for {@link #errors}. */
  private static final int ERROR_PAGE = 500;

  /**
   * Longest one hold of the store's lock reads histories for {@link #errors}, so a runner's
   * claims and records beside it wait a few milliseconds at most.
   */
  private static final long ERROR_HOLD_NANOS = 5_000_000;

  @Override
  public void errors(ErrorQuery query, Consumer<ErrorEntry> each) {
    List<String> machines = query.machine().map(List::of)
        .orElseGet(() -> gate.locked(index::machinesWithTasks));
    for (String machine : machines) {
      String after = null;
      do {
        List<ErrorEntry> page = new ArrayList<>();
        String from = after;
        after = gate.locked(() -> index.errors(query, machine, from, ERROR_PAGE,
            ERROR_HOLD_NANOS, page::add));
        page.forEach(each);
      } while (after != null);
    }
  }

  @Override
  public List<String> idsStartingWith(String prefix, int limit) {
    return gate.locked(() -> index.idsStartingWith(prefix, limit));
  }

  /** Waits until every change appended so far is on disk. */
  void awaitDurable() {
    gate.await(gate.locked(() -> gate.afterLastChange(null)));
  }

  @Override
  public Optional<Instant> nextDue() {
    return nextDue(ClaimLimits.NONE);
  }

  @Override
  public Optional<Instant> nextDue(ClaimLimits limits) {
    return gate.locked(() -> {
      Instant due = (limits.none() ? index.nextDue() : index.nextDue(limits.budget()))
          .orElse(null);
      Instant leaseEnd = leases.nextEnd();
      return Optional.ofNullable(due == null || (leaseEnd != null && leaseEnd.isBefore(due))
          ? leaseEnd : due);
    });
  }

  @Override
  public List<TaskCount> counts() {
    return gate.locked(index::counts);
  }

  @Override
  public MachineVersion register(String machine, String definition, Instant now) {
    return durably(() -> {
      List<MachineVersion> known = index.versions(machine);
      MachineVersion added = MachineVersion.next(machine, definition, now, known);
      if (!added.isAfter(known)) {
        return gate.afterLastChange(added);
      }
      return gate.commit(added, records.registered(added));
    });
  }

  /**
   * One batch under the store's lock: candidates from the status groups in id order, each
   * checked against its newest history entry, the matches deleted by one journal record, so a
   * crash keeps the whole batch or none of it. The space comes back at the next checkpoint,
   * whose snapshot no longer holds them and which deletes the journal segments that do; a purge
   * of a tenth of the tasks or more starts one when its last batch is done.
   */
  @Override
  public PurgeBatch purge(PurgeQuery query, Instant now) {
    long[] at = new long[2];
    // Timed from taking the lock to leaving it, so the hold includes applying the changes that
    // wait for the index: the previous batch's deletions and this one's.
    Pending<PurgeBatch> pending = gate.appending(() -> {
      at[0] = System.nanoTime();
      TaskIndex index = gate.index();
      List<Task> candidates = index.list(query.candidates());
      List<Task> gone = new ArrayList<>();
      List<String> ids = new ArrayList<>();
      for (Task t : candidates) {
        if (query.matches(t, index.lastEntry(t.id()), now)) {
          gone.add(t);
          ids.add(t.id());
        }
      }
      Optional<String> resume = candidates.size() < query.batch() ? Optional.empty()
          : Optional.of(candidates.get(candidates.size() - 1).id());
      PurgeBatch result = new PurgeBatch(PurgeBatch.tally(gone), resume, Duration.ZERO);
      at[1] = index.size() - ids.size();
      return query.dryRun() || ids.isEmpty() ? Pending.unchanged(result)
          : gate.commit(result, records.purged(ids));
    });
    Duration held = Duration.ofNanos(System.nanoTime() - at[0]);
    PurgeBatch batch = gate.await(pending);
    if (!query.dryRun()) {
      checkpoints.purged(batch.total(), batch.resumeAfter().isEmpty(), at[1]);
    }
    checkpoints.maybeStart();
    return new PurgeBatch(batch.purged(), batch.resumeAfter(), held);
  }


  @Override
  public List<MachineVersion> versions(String machine) {
    return gate.locked(() -> index.versions(machine));
  }

  @Override
  public List<MachineVersion> allVersions() {
    return gate.locked(index::allVersions);
  }

  /**
   * Makes everything acknowledged durable, closes the journal and the index, marks the index
   * clean (unless a failure left it ahead of the journal) and releases the folder.
   */
  @Override
  public void close() {
    if (snapshotCheck != null) {
      snapshotCheck.await();
    }
    checkpoints.close();
    flusher.close();
    if (gate.close()) {
      CleanClose.finish(folder, journal, index, gate::sound, owner);
    }
  }

  /** What the journal has written and forced since the store opened. */
  public JournalStats journalStats() {
    return journal.stats();
  }

  /** The background check of the snapshot, when the open started one; for tests. */
  Optional<SnapshotCheck> snapshotCheck() {
    return Optional.ofNullable(snapshotCheck);
  }

  /** The journal, for tests that break it and for checks. */
  Journal journal() {
    return journal;
  }

  /** The gate, for tests that take a checkpoint step by step ({@link Checkpoint#take}). */
  StoreGate gate() {
    return gate;
  }

  /** The index, for checks; guard every use with {@link #locked}. */
  TaskIndex index() {
    return index;
  }

  /** Runs {@code body} under the store's lock, with nothing changing meanwhile. */
  <T> T locked(Supplier<T> body) {
    return gate.locked(body);
  }

  /**
   * As {@link #locked}, with no checkpoint deleting journal segments meanwhile: a background one
   * (which a large purge starts) ends first.
   */
  <T> T lockedWithoutCheckpoints(Supplier<T> body) {
    return checkpoints.excluding(() -> gate.locked(body));
  }

  /** One process owns the store at a time: the one that opened it. */
  @Override
  public Ownership ownership() {
    return Ownership.OWNER_WITH_SOCKET;
  }

  /** Kept beside the journal, not in it (see {@link RunnersFile}). */
  @Override
  public void runnerSeen(RunnerRecord runner) {
    runners.seen(runner);
  }

  @Override
  public List<RunnerRecord> runners(Instant seenSince) {
    return runners.seenSince(seenSince);
  }

  /** The store's folder. */
  public Path folder() {
    return folder;
  }

  /** Makes a change under the gate's lock and waits for it to reach the disk outside it. */
  private <T> T durably(Supplier<Pending<T>> body) {
    T result = gate.await(gate.locked(body));
    checkpoints.maybeStart();
    return result;
  }

  /** As {@link #durably}, for a body that takes the index only when it needs it. */
  private <T> T durablyAppending(Supplier<Pending<T>> body) {
    T result = gate.await(gate.appending(body));
    checkpoints.maybeStart();
    return result;
  }

  /**
   * As {@link #durablyAppending}, for a runner's outcomes: run by whichever writer holds the
   * store's lock when it is taken (see {@link StoreGate#appendAndAwait}).
   */
  private <T> T durablyCombined(Supplier<Pending<T>> body) {
    T result = gate.appendAndAwait(body);
    checkpoints.maybeStart();
    return result;
  }

  private static void giveUp(StoreLock owner, Journal journal) {
    try {
      if (journal != null) {
        journal.close();
      }
    } catch (IOException | RuntimeException e) {
      // The open failed already; that is the error to report.
    } finally {
      owner.close();
    }
  }
}

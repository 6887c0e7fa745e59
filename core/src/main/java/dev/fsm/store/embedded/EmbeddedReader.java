package dev.fsm.store.embedded;

import dev.fsm.FsmException;
import dev.fsm.store.ClaimLimits;
import dev.fsm.store.ErrorEntry;
import dev.fsm.store.ErrorQuery;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.Ownership;
import dev.fsm.store.PurgeBatch;
import dev.fsm.store.PurgeQuery;
import dev.fsm.store.RunnerRecord;
import dev.fsm.store.Store;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskNotFoundException;
import dev.fsm.store.TaskQuery;
import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.store.embedded.journal.Journal;
import dev.fsm.store.embedded.owner.RunnersFile;
import dev.fsm.store.embedded.owner.StoreLock;
import dev.fsm.store.embedded.recovery.CleanMarker;
import dev.fsm.store.embedded.recovery.IndexOpening;
import dev.fsm.store.embedded.repair.RepairFolders;
import dev.fsm.task.Change;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.mapdb.DBException;

/**
 * An embedded store opened to read only, for a one-shot read verb: it makes the same checks as
 * {@link EmbeddedStore#open} (the folder's owner lock, an unfinished repair, every journal frame,
 * the clean marker and the time-bounded index check) but writes nothing, so there is no marker
 * to take away and put back, no index to mark and write back, no fsync and no background thread.
 * A store that opening would change (an unclean close, a torn tail, an index that fails its
 * check) is opened by {@link EmbeddedStore#open} instead, which rebuilds or cuts as always.
 */
public final class EmbeddedReader implements Store {

  /** Tasks whose histories {@link #errors} reads at a time, so their ids never pile up. */
  private static final int ERROR_PAGE = 500;

  private final Path folder;
  private final StoreLock owner;
  private final TaskIndex index;
  private boolean closed;

  private EmbeddedReader(Path folder, StoreLock owner, TaskIndex index) {
    this.folder = folder;
    this.owner = owner;
    this.index = index;
  }

  /**
   * The store in {@code folder} to read, or {@link EmbeddedStore#open} when reading it as it is
   * would not be sound; damage is refused with the same exceptions either way.
   */
  public static Store open(Path folder, EmbeddedStoreOptions options) {
    Optional<EmbeddedReader> reader = tryOpen(folder, options);
    return reader.isPresent() ? reader.get() : EmbeddedStore.open(folder, options);
  }

  /** The reader, or empty when the store must be opened the writing way. */
  static Optional<EmbeddedReader> tryOpen(Path folder, EmbeddedStoreOptions options) {
    StoreLock owner = StoreLock.acquire(folder, options.purpose(), options.waiting());
    try {
      RepairFolders.refuseUnfinished(folder);
      Optional<CleanMarker.Contents> marker = CleanMarker.read(folder);
      if (marker.isEmpty() || options.forceRebuild()) {
        owner.close();
        return Optional.empty();
      }
      OptionalLong end = Journal.soundEnd(folder.resolve(Journal.FOLDER), options.journal(),
          marker.get().sequence(), marker.get().seal());
      Optional<TaskIndex> index = end.isEmpty() ? Optional.empty()
          : IndexOpening.openToRead(folder, end.getAsLong(), options.indexOpenTimeout());
      if (index.isEmpty()) {
        owner.close();
        return Optional.empty();
      }
      return Optional.of(new EmbeddedReader(folder, owner, index.get()));
    } catch (IOException | RuntimeException | Error e) {
      owner.close();
      throw EmbeddedStore.openFailed(folder, e);
    }
  }

  @Override
  public synchronized Optional<Task> get(String id) {
    return read(() -> Optional.ofNullable(index.get(id)));
  }

  @Override
  public synchronized List<Transition> history(String id) {
    return read(() -> {
      if (!index.contains(id)) {
        throw new TaskNotFoundException(id);
      }
      return index.history(id);
    });
  }

  /** Nothing changes a store opened to read: no change is known in order. */
  @Override
  public synchronized List<Task> recentlyChanged(TaskQuery filter) {
    return List.of();
  }

  @Override
  public synchronized List<Task> list(TaskQuery query) {
    return read(() -> index.list(query));
  }

  @Override
  public synchronized List<String> ids(TaskQuery query) {
    return read(() -> index.ids(query)).orElseGet(() -> Store.super.ids(query));
  }

  /** Ids a caller just listed: an id of no task reads as no entries, as the contract allows. */
  @Override
  public synchronized Map<String, List<Transition>> histories(List<String> ids) {
    return read(() -> index.histories(ids));
  }

  @Override
  public synchronized void errors(ErrorQuery query, Consumer<ErrorEntry> each) {
    read(() -> {
      List<String> machines = query.machine().map(List::of)
          .orElseGet(index::machinesWithTasks);
      for (String machine : machines) {
        String after = null;
        do {
          after = index.errors(query, machine, after, ERROR_PAGE, Long.MAX_VALUE, each);
        } while (after != null);
      }
      return null;
    });
  }

  @Override
  public synchronized List<String> idsStartingWith(String prefix, int limit) {
    return read(() -> index.idsStartingWith(prefix, limit));
  }

  @Override
  public Optional<Instant> nextDue() {
    return nextDue(ClaimLimits.NONE);
  }

  /** No lease is held: every lease ended at the clean close this index was left by. */
  @Override
  public synchronized Optional<Instant> nextDue(ClaimLimits limits) {
    return read(() -> limits.none() ? index.nextDue() : index.nextDue(limits.budget()));
  }

  @Override
  public synchronized List<TaskCount> counts() {
    return read(index::counts);
  }

  @Override
  public synchronized List<MachineVersion> versions(String machine) {
    return read(() -> index.versions(machine));
  }

  @Override
  public synchronized List<MachineVersion> allVersions() {
    return read(index::allVersions);
  }

  /**
   * A read of the index, whose damage (which its open's sampled check can miss) is the user's to
   * fix with a rebuild, not a bug: this reader writes nothing, so it cannot mend it itself.
   */
  private <T> T read(Supplier<T> body) {
    try {
      return body.get();
    } catch (DBException e) {
      throw new FsmException("the index of store " + folder + " is damaged (" + e.getMessage()
          + "); run `fsm store rebuild` to rebuild it from the journal, which holds every"
          + " change");
    } catch (FsmException e) {
      throw e;
    } catch (RuntimeException e) {
      // A record that decodes to nonsense fails in many ways besides MapDB's own.
      throw new FsmException("the index of store " + folder + " could not be read (" + e
          + "); `fsm store check` says whether it is damaged, and `fsm store rebuild` rebuilds"
          + " it from the journal, which holds every change");
    }
  }

  @Override
  public List<RunnerRecord> runners(Instant seenSince) {
    return new RunnersFile(folder).seenSince(seenSince);
  }

  @Override
  public Ownership ownership() {
    return Ownership.OWNER_WITH_SOCKET;
  }

  /** Closes the index, which was never written, and releases the folder. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      index.close();
    } finally {
      owner.close();
    }
  }

  @Override
  public void create(List<Task> tasks) {
    throw readOnly();
  }

  @Override
  public void restore(List<TaskHistory> tasks) {
    throw readOnly();
  }

  @Override
  public List<Task> claim(String owner, int max, Instant now, Duration lease,
      ClaimLimits limits) {
    throw readOnly();
  }

  @Override
  public Set<String> renew(String owner, Collection<String> ids, Instant until) {
    throw readOnly();
  }

  @Override
  public void record(String owner, Change change) {
    throw readOnly();
  }

  @Override
  public Set<String> recordAll(String owner, List<Change> changes) {
    throw readOnly();
  }

  @Override
  public Task update(String id, Function<Task, Change> change) {
    throw readOnly();
  }

  @Override
  public MachineVersion register(String machine, String definition, Instant now) {
    throw readOnly();
  }

  @Override
  public PurgeBatch purge(PurgeQuery query, Instant now) {
    throw readOnly();
  }

  @Override
  public void runnerSeen(RunnerRecord runner) {
    throw readOnly();
  }

  /** A verb opened the store to read and then changed it: a bug, never the user's doing. */
  private UnsupportedOperationException readOnly() {
    return new UnsupportedOperationException("store " + folder + " was opened to read only");
  }
}

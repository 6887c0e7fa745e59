package dev.fsm.store.transfer;

import dev.fsm.FsmException;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.Store;
import dev.fsm.store.TaskExistsException;
import dev.fsm.task.TaskHistory;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Reads an export into an {@link ImportTarget}: a store here, or one a runner serves. It reads
 * the file twice: first to check all of it, and it against the store (machine versions that
 * agree, no task id taken unless skipped), so that a bad line or a taken id imports nothing;
 * then to register the machine versions the store lacks, with their numbers and ids, and to
 * restore the tasks with their histories a batch at a time ({@link Store#restore}).
 */
public final class StoreImport {

  /** The most tasks one {@link Store#restore} writes. */
  public static final int BATCH = 500;

  /** The most characters of export lines one batch holds: well within a journal record. */
  public static final int BATCH_CHARS = 1 << 20;

  /** Opens the export for reading, once per pass. */
  @FunctionalInterface
  public interface Source {
    InputStream open() throws IOException;
  }

  /**
   * What an import did.
   *
   * @param imported the machine versions registered, tasks and history entries written
   * @param versionsKnown machine versions the store had already
   * @param skipped tasks not imported because their id was taken ({@code --skip-existing})
   * @param leasesDropped imported tasks that a runner of the old store held: imported unleased
   * @param took from the start of the first pass to the end
   */
  public record Report(TransferCounts imported, long versionsKnown, long skipped,
      long leasesDropped, Duration took) {}

  private final Supplier<ImportTarget> opener;
  private final boolean exists;
  private ImportTarget store;
  private final String storeName;
  private final Source source;
  private final String name;
  private final boolean skipExisting;
  private final TransferProgress progress;
  private long leases;

  /**
   * An import into a store that exists.
   *
   * @param storeName the store as messages name it ({@code --store})
   * @param name the export as messages name it (its path)
   */
  public StoreImport(Store store, String storeName, Source source, String name,
      boolean skipExisting, TransferProgress progress) {
    this(() -> ImportTarget.of(store), true, storeName, source, name, skipExisting, progress);
  }

  /**
   * An import into the store {@code opener} opens: at once when it {@code exists}, else (when
   * it creates the store) only once the export has been checked, so a bad file leaves no new
   * empty store behind.
   */
  public StoreImport(Supplier<ImportTarget> opener, boolean exists, String storeName, Source source,
      String name, boolean skipExisting, TransferProgress progress) {
    this.opener = opener;
    this.exists = exists;
    this.storeName = storeName;
    this.source = source;
    this.name = name;
    this.skipExisting = skipExisting;
    this.progress = progress;
  }

  /**
   * Checks the whole export, then imports it.
   *
   * @throws TransferFileException when the export is not whole and sound; nothing is imported
   * @throws FsmException when it does not fit the store (a taken id without {@code
   *     skipExisting}, a machine whose versions differ); nothing is imported
   */
  public Report run() throws IOException {
    long start = System.nanoTime();
    Map<String, List<MachineVersion>> versions = new LinkedHashMap<>();
    long tasks;
    if (exists) {
      store = opener.get();
    }
    try {
      tasks = check(versions);
    } catch (TransferFileException e) {
      throw new TransferFileException(e.getMessage() + "; nothing was imported", e);
    }
    if (store == null) {
      store = opener.get();
    }
    long known = 0;
    TransferCounts done = TransferCounts.NONE;
    for (List<MachineVersion> ofMachine : versions.values()) {
      int have = store.versions(ofMachine.get(0).machine()).size();
      known += Math.min(have, ofMachine.size());
      for (MachineVersion v : ofMachine.subList(Math.min(have, ofMachine.size()),
          ofMachine.size())) {
        register(v);
        done = done.plusVersion();
      }
    }
    long skipped = 0;
    try (TransferReader r = new TransferReader(source.open(), name)) {
      ImportBatch batch = new ImportBatch();
      for (Optional<TransferRecord> next = next(r, done); next.isPresent();
          next = next(r, done)) {
        if (next.get() instanceof TransferRecord.TaskLine t) {
          if (!batch.fits(r.lineChars())) {
            skipped += write(batch);
            done = batch.counted(done);
            batch = new ImportBatch();
            progress.tasks(done.tasks() + skipped, tasks);
          }
          batch.add(t.task(), r.lineChars());
        }
      }
      skipped += write(batch);
      done = batch.counted(done);
      progress.tasks(done.tasks() + skipped, tasks);
    }
    return new Report(done, known, skipped, leases,
        Duration.ofNanos(System.nanoTime() - start));
  }

  /** The second pass's next record: the file should read as in the first. */
  private Optional<TransferRecord> next(TransferReader r, TransferCounts done)
      throws IOException {
    try {
      return r.next();
    } catch (TransferFileException e) {
      throw new TransferFileException(e.getMessage() + "; " + name + " changed while it was"
          + " imported, after " + done.summary() + " were", e);
    }
  }

  /** The first pass: reads everything, checks it against the store; the number of tasks. */
  private long check(Map<String, List<MachineVersion>> versions) throws IOException {
    long tasks = 0;
    List<String> ids = new ArrayList<>(BATCH);
    try (TransferReader r = new TransferReader(source.open(), name)) {
      for (Optional<TransferRecord> next = r.next(); next.isPresent(); next = r.next()) {
        if (next.get() instanceof TransferRecord.Version v) {
          List<MachineVersion> of = versions.computeIfAbsent(v.version().machine(),
              m -> new ArrayList<>());
          if (v.version().number() != of.size() + 1) {
            throw new TransferFileException(name + " line " + r.line() + ": machine "
                + v.version().machine() + " version number " + v.version().number()
                + " where " + (of.size() + 1) + " comes next");
          }
          of.add(v.version());
        } else if (next.get() instanceof TransferRecord.TaskLine t) {
          if (tasks == 0) {
            versions.values().forEach(this::agree);
          }
          tasks++;
          if (!skipExisting && store != null) {
            ids.add(t.task().task().id());
            if (ids.size() == BATCH) {
              refuseTaken(ids);
              ids.clear();
            }
          }
        }
      }
    }
    if (tasks == 0) {
      versions.values().forEach(this::agree);
    }
    refuseTaken(ids);
    return tasks;
  }

  /**
   * Refuses a machine whose versions in the store and in the export are not one the start of
   * the other: tasks name versions by id, so both must mean the same texts.
   */
  private void agree(List<MachineVersion> exported) {
    if (store == null) {
      return;
    }
    String machine = exported.get(0).machine();
    List<MachineVersion> have = store.versions(machine);
    for (int i = 0; i < Math.min(have.size(), exported.size()); i++) {
      MachineVersion a = have.get(i);
      MachineVersion b = exported.get(i);
      if (!a.version().equals(b.version()) || !a.definition().equals(b.definition())) {
        throw new FsmException("machine " + machine + " version " + b.number() + " is "
            + b.version() + " in " + name + " but " + a.version() + " in store " + storeName
            + ": the store has its own versions of " + machine + "; nothing was imported."
            + " Import into a store without machine " + machine + ".");
      }
    }
  }

  private void refuseTaken(List<String> ids) {
    if (store == null || ids.isEmpty()) {
      return;
    }
    Set<String> taken = store.taken(ids);
    for (String id : ids) {
      if (taken.contains(id)) {
        throw new FsmException("task `" + id + "` exists already in store " + storeName
            + "; nothing was imported. Import into a new store, or pass --skip-existing to"
            + " import only the tasks it does not have.");
      }
    }
  }

  private void register(MachineVersion v) {
    MachineVersion got = store.register(v.machine(), v.definition(), v.registered());
    if (got.number() != v.number() || !got.version().equals(v.version())) {
      throw new FsmException("machine " + v.machine() + " version " + v.number() + " ("
          + v.version() + ") was registered in store " + storeName + " as version "
          + got.number() + " (" + got.version() + "); another process registered versions"
          + " of " + v.machine() + " meanwhile. No task was imported yet.");
    }
  }

  /** Writes a batch; the number of tasks skipped because their id was taken. */
  private int write(ImportBatch batch) {
    int skipped = restore(batch);
    leases += batch.tasks.stream().filter(t -> t.task().lease() != null).count();
    return skipped;
  }

  private int restore(ImportBatch batch) {
    if (batch.tasks.isEmpty()) {
      return 0;
    }
    if (skipExisting) {
      int before = batch.tasks.size();
      dropTaken(batch);
      int skipped = before - batch.tasks.size();
      try {
        store.restore(batch.tasks);
      } catch (TaskExistsException e) {
        // Created by another process since the check just now: skip it too, once more.
        dropTaken(batch);
        skipped = before - batch.tasks.size();
        store.restore(batch.tasks);
      }
      return skipped;
    }
    try {
      store.restore(batch.tasks);
    } catch (TaskExistsException e) {
      throw new FsmException("task `" + e.id() + "` was created in store " + storeName
          + " while the import ran; the tasks before its batch were imported. Run the import"
          + " again with --skip-existing to add the rest.", e);
    } catch (FsmException e) {
      // The store refused a batch the file check could not foresee (a task too large for it):
      // say how far the import got, so that it can be finished.
      throw new FsmException(e.getMessage() + " The tasks before task `"
          + batch.tasks.get(0).task().id() + "` in " + name + " were imported, none from it"
          + " on; run the import again with --skip-existing after dealing with it.", e);
    }
    return 0;
  }

  private void dropTaken(ImportBatch batch) {
    Set<String> taken = store.taken(batch.tasks.stream().map(t -> t.task().id()).toList());
    batch.tasks.removeIf(t -> taken.contains(t.task().id()));
  }
}

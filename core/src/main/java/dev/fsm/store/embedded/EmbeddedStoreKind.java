package dev.fsm.store.embedded;

import dev.fsm.FsmException;
import dev.fsm.store.Ownership;
import dev.fsm.store.Store;
import dev.fsm.store.StoreKind;
import dev.fsm.store.StoreLocation;
import dev.fsm.store.StoreOpenOptions;
import dev.fsm.store.StorePurpose;
import dev.fsm.store.embedded.journal.Journal;
import dev.fsm.store.embedded.owner.StoreWaiting;
import dev.fsm.store.embedded.repair.RepairReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.function.UnaryOperator;

/**
 * The embedded store as a kind of store: a folder of this machine, held by one process at a
 * time, which serves the others over its control socket.
 */
public final class EmbeddedStoreKind implements StoreKind {

  /** The one instance; the kind holds no state. */
  public static final EmbeddedStoreKind INSTANCE = new EmbeddedStoreKind();

  private EmbeddedStoreKind() {}

  @Override
  public String name() {
    return "embedded";
  }

  @Override
  public boolean accepts(StoreLocation location) {
    return location instanceof StoreLocation.Folder;
  }

  @Override
  public Ownership ownership() {
    return Ownership.OWNER_WITH_SOCKET;
  }

  @Override
  public boolean exists(StoreLocation location) {
    Path folder = folder(location);
    return Files.isDirectory(folder) && StoreCheck.holdsStore(folder);
  }

  @Override
  public void check(StoreLocation location, StorePurpose purpose, String verb, boolean create) {
    Path folder = folder(location);
    if (purpose == StorePurpose.CHECK) {
      // Checking a folder must never create a store in it.
      existingFolder(folder);
      if (!StoreCheck.holdsStore(folder)) {
        throw StoreCheck.lostJournal(folder) ? journalLost(folder) : noStore(folder);
      }
      return;
    }
    if (Files.exists(folder) && !Files.isDirectory(folder)) {
      throw new FsmException("--store " + folder + " is a file, not a store folder");
    }
    if (!create && !exists(location)) {
      throw StoreCheck.lostJournal(folder) ? journalLost(folder) : new FsmException("no fsm"
          + " store at " + folder + "; start a task there first with `fsm start MACHINE`, or"
          + " name a store with --store PATH or $FSM_STORE");
    }
  }

  /** A verb that only reads opens the store to read when that is sound (see EmbeddedReader). */
  @Override
  public Store open(StoreLocation location, StorePurpose purpose, StoreOpenOptions options) {
    if (purpose == StorePurpose.READ) {
      return EmbeddedReader.open(folder(location), settings(options));
    }
    // A runner lives long enough to check, in the background, what its open did not read.
    return open(location, options, purpose == StorePurpose.RUN
        ? o -> o.checkSnapshot(options.notice()) : UnaryOperator.identity());
  }

  /**
   * Opens the store with embedded-only settings on top of {@code options}, as the store verbs
   * do (a forced rebuild, its progress).
   */
  public EmbeddedStore open(StoreLocation location, StoreOpenOptions options,
      UnaryOperator<EmbeddedStoreOptions> tuning) {
    return EmbeddedStore.open(folder(location), tuning.apply(settings(options)));
  }

  private static EmbeddedStoreOptions settings(StoreOpenOptions options) {
    StoreWaiting waiting = options.waitInLine()
        ? StoreWaiting.inLine(options.notice(), options.servedElsewhere())
        : StoreWaiting.REFUSE;
    return EmbeddedStoreOptions.defaults().purpose(options.verb()).waiting(waiting);
  }

  /**
   * Salvages a damaged store ({@code fsm store repair}); the folder must hold a store or a
   * repair that was interrupted.
   */
  public RepairReport repair(StoreLocation location, EmbeddedStoreOptions options, Instant now) {
    Path folder = folder(location);
    existingFolder(folder);
    if (!StoreCheck.holdsStore(folder) && !StoreCheck.lostJournal(folder)
        && !StoreRepair.interrupted(folder)) {
      throw noStore(folder);
    }
    return StoreRepair.run(folder, options, now);
  }

  @Override
  public Path socketFolder(StoreLocation location) {
    return folder(location);
  }

  private static Path folder(StoreLocation location) {
    if (location instanceof StoreLocation.Folder f) {
      return f.path();
    }
    throw new IllegalArgumentException("an embedded store lives in a folder, not " + location);
  }

  private static void existingFolder(Path folder) {
    if (!Files.isDirectory(folder)) {
      throw new FsmException("no store folder " + folder + (Files.exists(folder)
          ? " (it is a file)" : "") + "; name an existing store with --store PATH or"
          + " $FSM_STORE");
    }
  }

  /** A store whose index is there and whose journal folder, the truth, is gone. */
  private static FsmException journalLost(Path folder) {
    return new FsmException("the store at " + folder + " has lost its journal folder ("
        + folder.resolve(Journal.FOLDER) + " is missing) but still has its index, so its records"
        + " are missing. fsm changed nothing; run `fsm store repair --store " + folder
        + "` to keep every record that can be proven and report exactly what is lost, or"
        + " restore the store folder from a backup");
  }

  private static FsmException noStore(Path folder) {
    return new FsmException("folder " + folder + " holds no fsm store (it has no journal/);"
        + " name an existing store with --store PATH or $FSM_STORE");
  }
}

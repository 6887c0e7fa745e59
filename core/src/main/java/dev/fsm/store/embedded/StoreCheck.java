package dev.fsm.store.embedded;

import dev.fsm.FsmException;
import dev.fsm.store.embedded.check.IndexCheck;
import dev.fsm.store.embedded.check.StoreCheckReport;
import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.store.embedded.journal.Journal;
import dev.fsm.store.embedded.recovery.CleanMarker;
import dev.fsm.store.embedded.recovery.RebuildProgress;
import dev.fsm.store.embedded.recovery.TimeBound;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;

/**
 * Verifies an open embedded store's index against its journal ({@code fsm store check}): builds a
 * fresh index from the journal beside the live one, as an open with a rebuild does, and compares
 * the two collection by collection and entry by entry. Meaningful while no task is leased, as
 * after an open: a leased task is out of the live due queue, and a rebuild knows no leases.
 */
public final class StoreCheck {

  /** The temporary index's name in the store folder; deleted after every check. */
  static final String FILE = "index.check.db";

  private StoreCheck() {}

  /** A check that did not finish in time; a thread may still be stuck in the index. */
  public static final class Stuck extends FsmException {

    Stuck(String message) {
      super(message);
    }
  }

  /** True when {@code folder} holds an embedded store (its journal), without creating one. */
  public static boolean holdsStore(Path folder) {
    return Files.isDirectory(folder.resolve(Journal.FOLDER));
  }

  /**
   * True when the folder held a store (its index or its clean mark is there) whose journal
   * folder has gone: a damaged store to repair, not an empty folder.
   */
  public static boolean lostJournal(Path folder) {
    return !holdsStore(folder) && (Files.exists(folder.resolve(CleanMarker.FILE))
        || Files.exists(folder.resolve(TaskIndex.FILE)));
  }

  /**
   * A time bound that grows with the journal: a minute, plus a millisecond per record, far
   * slower than any sound rebuild.
   */
  public static Duration defaultLimit(EmbeddedStore store) {
    return Duration.ofMinutes(1).plusMillis(store.journal().lastSequence());
  }

  /**
   * Rebuilds an index from the journal into {@value #FILE} and compares it with the store's,
   * under the store's lock so nothing changes meanwhile.
   *
   * @throws Stuck when the check does not finish within {@code limit}; the store's lock may
   *     then be held for good, so the caller should leave the store and exit
   */
  public static StoreCheckReport run(EmbeddedStore store, Duration limit,
      RebuildProgress progress) {
    Path file = store.folder().resolve(FILE);
    try {
      return TimeBound.call("fsm-store-check", limit,
          () -> store.lockedWithoutCheckpoints(() -> IndexCheck.compare(store.folder(),
              store.journal(), store.index(), file, progress)), late -> { });
    } catch (TimeBound.Exceeded e) {
      throw new Stuck("checking store " + store.folder() + " did not finish within "
          + limit.toMillis() + " ms: its index may be damaged so that reading it loops; run"
          + " `fsm store rebuild` to build it again from the journal");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof FsmException f) {
        throw f;
      }
      throw new FsmException("checking store " + store.folder() + " failed (" + cause + ");"
          + " run `fsm store rebuild` to build its index again from the journal", cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FsmException("checking store " + store.folder() + " was interrupted");
    }
  }
}

package dev.fsm.store.embedded;

import dev.fsm.store.embedded.owner.StoreInUseException;
import dev.fsm.store.embedded.repair.RepairReport;
import dev.fsm.store.embedded.repair.RepairRun;
import java.nio.file.Path;
import java.time.Instant;

/**
 * {@code fsm store repair}: keeps every record of a damaged embedded store it can prove and
 * reports exactly what it could not recover. It reads every sound record of the journal (before
 * and after damage) and of the snapshot, and uses the index when a clean close left it and it
 * covers what the journal lost; builds the state they give into a new snapshot and an empty
 * journal after it; moves the damaged originals aside into {@code damaged-<time>/}; and opens the
 * store once to rebuild its index. See {@code RepairFolders} for how a kill midway is survived.
 */
public final class StoreRepair {

  private StoreRepair() {}

  /**
   * Repairs the store in {@code folder}, which must exist, naming the damaged originals' folder
   * after {@code now}.
   *
   * @throws StoreInUseException when another process has the store open
   */
  public static RepairReport run(Path folder, EmbeddedStoreOptions options, Instant now) {
    RepairReport report = RepairRun.run(folder, options.journal().maxRecordBytes(),
        options.indexOpenTimeout(), now);
    if (!report.sound()) {
      // Builds the index from the new snapshot, and proves the repaired store opens.
      EmbeddedStore.open(folder, options.forceRebuild(true).purpose("fsm store repair"))
          .close();
    }
    return report;
  }

  /** True when {@code folder} holds a repair that was interrupted after its commit. */
  public static boolean interrupted(Path folder) {
    return RepairRun.interrupted(folder);
  }
}

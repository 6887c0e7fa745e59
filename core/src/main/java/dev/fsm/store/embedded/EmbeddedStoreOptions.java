package dev.fsm.store.embedded;

import dev.fsm.store.embedded.checkpoint.SnapshotCheck;
import dev.fsm.store.embedded.journal.JournalOptions;
import dev.fsm.store.embedded.owner.StoreWaiting;
import dev.fsm.store.embedded.recovery.RebuildProgress;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * How an embedded store is opened.
 *
 * @param purpose what the owner is doing, e.g. {@code fsm run}, shown to others who find the
 *     store in use
 * @param indexOpenTimeout how long opening the index left at a clean close may take before it is
 *     taken as damaged and rebuilt (a damaged MapDB file can loop forever rather than fail)
 * @param journal how the journal is written and opened
 * @param forceRebuild rebuild the index from snapshot and journal even when it was closed cleanly
 * @param progress told how a rebuild of the index goes
 * @param checkpointBytes how much the journal grows before a checkpoint starts in the
 *     background (at least the last snapshot's size); 0 for checkpoints only when asked
 * @param waiting what opening does while another process holds the store
 * @param snapshotCheck when not null, a snapshot the open did not read (the index was used as
 *     is) is verified in the background, and one found damaged is replaced by a checkpoint from
 *     the index, which this is told of in one line ({@link SnapshotCheck}); for a runner
 */
public record EmbeddedStoreOptions(String purpose, Duration indexOpenTimeout,
    JournalOptions journal, boolean forceRebuild, RebuildProgress progress,
    long checkpointBytes, StoreWaiting waiting, Consumer<String> snapshotCheck) {

  /** The default journal growth between checkpoints: 64 MiB. */
  public static final long CHECKPOINT_BYTES = 64L << 20;

  public EmbeddedStoreOptions {
    Objects.requireNonNull(purpose, "purpose");
    Objects.requireNonNull(journal, "journal");
    Objects.requireNonNull(progress, "progress");
    Objects.requireNonNull(waiting, "waiting");
    if (indexOpenTimeout.isNegative() || indexOpenTimeout.isZero()) {
      throw new IllegalArgumentException("indexOpenTimeout must be positive");
    }
    if (checkpointBytes < 0) {
      throw new IllegalArgumentException("checkpointBytes cannot be negative");
    }
  }

  /**
   * Purpose {@code fsm}, 5 seconds to open the index, the journal's defaults, refusing at once a
   * store another process holds.
   */
  public static EmbeddedStoreOptions defaults() {
    return new EmbeddedStoreOptions("fsm", Duration.ofSeconds(5), JournalOptions.defaults(),
        false, RebuildProgress.NONE, CHECKPOINT_BYTES, StoreWaiting.REFUSE, null);
  }

  /** These options with another purpose. */
  public EmbeddedStoreOptions purpose(String purpose) {
    return new EmbeddedStoreOptions(purpose, indexOpenTimeout, journal, forceRebuild, progress,
        checkpointBytes, waiting, snapshotCheck);
  }

  /** These options with another time bound for opening the index. */
  public EmbeddedStoreOptions indexOpenTimeout(Duration timeout) {
    return new EmbeddedStoreOptions(purpose, timeout, journal, forceRebuild, progress,
        checkpointBytes, waiting, snapshotCheck);
  }

  /** These options with other journal options. */
  public EmbeddedStoreOptions journal(JournalOptions options) {
    return new EmbeddedStoreOptions(purpose, indexOpenTimeout, options, forceRebuild, progress,
        checkpointBytes, waiting, snapshotCheck);
  }

  /** These options, rebuilding the index at open whatever state it is in (or not). */
  public EmbeddedStoreOptions forceRebuild(boolean rebuild) {
    return new EmbeddedStoreOptions(purpose, indexOpenTimeout, journal, rebuild, progress,
        checkpointBytes, waiting, snapshotCheck);
  }

  /** These options with a listener for rebuild progress. */
  public EmbeddedStoreOptions progress(RebuildProgress listener) {
    return new EmbeddedStoreOptions(purpose, indexOpenTimeout, journal, forceRebuild, listener,
        checkpointBytes, waiting, snapshotCheck);
  }

  /** These options with another journal growth between background checkpoints (0: none). */
  public EmbeddedStoreOptions checkpointBytes(long bytes) {
    return new EmbeddedStoreOptions(purpose, indexOpenTimeout, journal, forceRebuild, progress,
        bytes, waiting, snapshotCheck);
  }

  /** These options, checking in the background a snapshot the open did not read. */
  public EmbeddedStoreOptions checkSnapshot(Consumer<String> notice) {
    return new EmbeddedStoreOptions(purpose, indexOpenTimeout, journal, forceRebuild, progress,
        checkpointBytes, waiting, notice);
  }

  /** These options with another way of waiting for a store another process holds. */
  public EmbeddedStoreOptions waiting(StoreWaiting how) {
    return new EmbeddedStoreOptions(purpose, indexOpenTimeout, journal, forceRebuild, progress,
        checkpointBytes, how, snapshotCheck);
  }
}

package dev.fsm.store.embedded.recovery;

import dev.fsm.files.DiskFailure;
import dev.fsm.store.UncleanCloseException;
import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.store.embedded.journal.Journal;
import dev.fsm.store.embedded.journal.JournalSeal;
import dev.fsm.store.embedded.owner.StoreLock;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * The end of a store's close, once nothing more is appended: the journal closed, the index marked
 * clean and closed, the clean marker written with the journal's seal, the folder released. What
 * the next open trusts ({@link CleanMarker}) is written only when all of it succeeded.
 */
public final class CleanClose {

  private CleanClose() {}

  /**
   * Closes the journal and the index and releases the folder, marking the index clean unless a
   * failure ({@code sound} false once the journal is closed) may have left it ahead of the
   * journal.
   *
   * @throws UncleanCloseException when the store did not close cleanly; every acknowledged
   *     change is still in the journal, and the next open rebuilds the index from it
   */
  public static void finish(Path folder, Journal journal, TaskIndex index, BooleanSupplier sound,
      StoreLock owner) {
    Throwable failure = null;
    try {
      journal.close();
    } catch (IOException | RuntimeException e) {
      failure = e;
    }
    boolean clean = failure == null && sound.getAsBoolean();
    long sequence = journal.lastSequence();
    try {
      try {
        if (clean) {
          index.markClosedAt(sequence);
        }
      } finally {
        index.close();
      }
      if (clean) {
        CleanMarker.fsync(folder.resolve(TaskIndex.FILE));
        CleanMarker.write(folder, sequence, seal(journal));
      }
    } catch (IOException | RuntimeException e) {
      failure = failure == null ? e : failure;
    } catch (InternalError e) {
      if (!DiskFailure.isMappedFault(e)) {
        throw e;
      }
      failure = failure == null ? e : failure;
    } finally {
      owner.close();
    }
    Optional<String> disk = failure == null ? Optional.empty()
        : DiskFailure.afterTheWork(folder, failure);
    if (disk.isPresent()) {
      throw new UncleanCloseException("store " + folder + " did not close cleanly: " + disk.get()
          + "; every change acknowledged is safe in the journal, and the next open rebuilds the"
          + " index from it", failure);
    }
    if (failure != null) {
      throw new UncleanCloseException("store " + folder + " did not close cleanly (" + failure
          + "); its next open rebuilds the index from the journal, which holds every"
          + " acknowledged change", failure);
    }
  }

  /**
   * The closed journal's seal, which lets the next open skip decoding every frame; none when it
   * cannot be read, as that open then checks the journal frame by frame, as before seals.
   */
  private static Optional<JournalSeal> seal(Journal journal) {
    try {
      return Optional.of(journal.seal());
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}

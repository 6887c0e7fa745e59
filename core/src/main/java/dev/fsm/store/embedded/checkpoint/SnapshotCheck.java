package dev.fsm.store.embedded.checkpoint;

import dev.fsm.store.embedded.journal.SnapshotFile;
import dev.fsm.store.embedded.journal.Threads;
import java.io.IOException;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * A runner's check of the snapshot its open did not read. An index left at a clean close is used
 * as is, so a snapshot damaged since went unnoticed until a crash made a rebuild read it, and the
 * records only it held were lost then, though the sound index still had them. This reads the
 * snapshot once, in the background, and when it is damaged takes a checkpoint at once, which
 * writes a new snapshot from the index, and says so.
 */
public final class SnapshotCheck {

  private final Thread thread;

  private SnapshotCheck(Path snapshot, Runnable checkpoint, Consumer<String> notice) {
    this.thread = new Thread(() -> run(snapshot, checkpoint, notice), "fsm-snapshot-check");
    thread.setDaemon(true);
    thread.setPriority(Thread.MIN_PRIORITY);
  }

  /**
   * Starts the check of {@code snapshot}; {@code checkpoint} takes one now, and {@code notice}
   * hears of damage, in one line.
   */
  public static SnapshotCheck start(Path snapshot, Runnable checkpoint,
      Consumer<String> notice) {
    SnapshotCheck check = new SnapshotCheck(snapshot, checkpoint, notice);
    check.thread.start();
    return check;
  }

  /**
   * Waits until the check has ended: before the store closes, so that even a short run replaces
   * a damaged snapshot. It reads the file once, about a second for a million tasks.
   */
  public void await() {
    Threads.joinUninterruptibly(thread);
  }

  private void run(Path snapshot, Runnable checkpoint, Consumer<String> notice) {
    String problem;
    try {
      SnapshotFile.read(snapshot, record -> { });
      return;
    } catch (SnapshotFile.Damaged e) {
      problem = e.problem();
    } catch (IOException | RuntimeException e) {
      // Gone, replaced by a checkpoint meanwhile, or unreadable as a whole (a rebuild would say
      // so): nothing this check can mend.
      return;
    }
    try {
      checkpoint.run();
      notice.accept("warning: " + problem + "; the index was sound, so a new snapshot was"
          + " written from it and nothing is lost");
    } catch (RuntimeException e) {
      notice.accept("warning: " + problem + ", and a new snapshot could not be written ("
          + e.getMessage() + "); the index still holds every task: stop this runner cleanly"
          + " (not kill -9), then run `fsm store repair`, which recovers them from it");
    }
  }
}

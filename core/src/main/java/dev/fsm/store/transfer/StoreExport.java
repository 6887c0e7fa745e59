package dev.fsm.store.transfer;

import dev.fsm.store.MachineVersion;
import dev.fsm.store.Store;
import dev.fsm.task.TaskHistory;
import java.io.IOException;
import java.io.Writer;
import java.time.Instant;

/**
 * Writes everything a store holds as an export ({@code docs/export-format.md}) from an
 * {@link ExportSource}, so every store, and one a runner serves, exports the same way: the
 * header, every machine version, then every task in id order, a page at a time with each task's
 * history, then the end line. Memory holds one page, however many tasks there are.
 */
public final class StoreExport {

  /** Tasks asked for per page. */
  public static final int PAGE = 500;

  private StoreExport() {}

  /**
   * Exports what {@code source} reads to {@code out} (not flushed or closed).
   *
   * @param fsm the version of fsm writing it, for the header
   * @return what was written
   */
  public static TransferCounts run(ExportSource source, Writer out, String fsm, Instant now,
      TransferProgress progress) throws IOException {
    TransferWriter w = new TransferWriter(out);
    w.write(new TransferRecord.Header(TransferFormat.VERSION, fsm, now));
    TransferCounts counts = TransferCounts.NONE;
    for (MachineVersion v : source.allVersions()) {
      w.write(new TransferRecord.Version(v));
      counts = counts.plusVersion();
    }
    long total = source.taskCount();
    String after = null;
    do {
      ExportPage page = source.page(after, PAGE);
      for (TaskHistory t : page.tasks()) {
        w.write(new TransferRecord.TaskLine(t));
        counts = counts.plusTask(t.history().size());
      }
      progress.tasks(counts.tasks(), Math.max(total, counts.tasks()));
      after = page.next();
    } while (after != null);
    w.write(new TransferRecord.End(counts));
    return counts;
  }

  /** {@link #run(ExportSource, Writer, String, Instant, TransferProgress)} of a store here. */
  public static TransferCounts run(Store store, Writer out, String fsm, Instant now,
      TransferProgress progress) throws IOException {
    return run(ExportSource.of(store), out, fsm, now, progress);
  }
}

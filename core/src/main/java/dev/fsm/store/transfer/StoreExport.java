package dev.fsm.store.transfer;

import dev.fsm.store.MachineVersion;
import dev.fsm.store.Store;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskNotFoundException;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.io.Writer;
import java.time.Instant;
import java.util.List;

/**
 * Writes everything a store holds as an export ({@code docs/export-format.md}), through the
 * {@link Store} interface only, so any store exports the same way: the header, every machine
 * version, then every task in id order, a page at a time with each task's history, then the end
 * line. Memory holds one page, however many tasks there are.
 */
public final class StoreExport {

  /** Tasks read per page. */
  public static final int PAGE = 500;

  private StoreExport() {}

  /**
   * Exports {@code store} to {@code out} (not flushed or closed).
   *
   * @param fsm the version of fsm writing it, for the header
   * @return what was written
   */
  public static TransferCounts run(Store store, Writer out, String fsm, Instant now,
      TransferProgress progress) throws IOException {
    TransferWriter w = new TransferWriter(out);
    w.write(new TransferRecord.Header(TransferFormat.VERSION, fsm, now));
    TransferCounts counts = TransferCounts.NONE;
    for (MachineVersion v : store.allVersions()) {
      w.write(new TransferRecord.Version(v));
      counts = counts.plusVersion();
    }
    long total = store.counts().stream().mapToLong(TaskCount::count).sum();
    TaskQuery query = TaskQuery.all(PAGE);
    while (true) {
      List<Task> page = store.list(query);
      for (Task t : page) {
        List<Transition> history;
        try {
          history = store.history(t.id());
        } catch (TaskNotFoundException e) {
          // Purged since the page was read (a store other processes share): not exported.
          continue;
        }
        w.write(new TransferRecord.TaskLine(new TaskHistory(t, history)));
        counts = counts.plusTask(history.size());
      }
      progress.tasks(counts.tasks(), Math.max(total, counts.tasks()));
      if (page.size() < PAGE) {
        break;
      }
      query = query.after(page.get(page.size() - 1).id());
    }
    w.write(new TransferRecord.End(counts));
    return counts;
  }
}

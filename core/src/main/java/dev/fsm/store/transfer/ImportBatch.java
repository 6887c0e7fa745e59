package dev.fsm.store.transfer;

import dev.fsm.task.TaskHistory;
import java.util.ArrayList;
import java.util.List;

/**
 * Tasks an import has read and not yet written: at most {@link StoreImport#BATCH} of them and
 * {@link StoreImport#BATCH_CHARS} characters of their lines, so one store call stays well within
 * what a store takes at once.
 */
final class ImportBatch {

  final List<TaskHistory> tasks = new ArrayList<>();
  long chars;

  void add(TaskHistory t, int lineChars) {
    tasks.add(t);
    chars += lineChars;
  }

  /** Whether a task of a line this long joins the batch; an empty batch takes any. */
  boolean fits(int lineChars) {
    return tasks.isEmpty()
        || (tasks.size() < StoreImport.BATCH && chars + lineChars <= StoreImport.BATCH_CHARS);
  }

  /** {@code done} with this batch's written tasks added. */
  TransferCounts counted(TransferCounts done) {
    TransferCounts c = done;
    for (TaskHistory t : tasks) {
      c = c.plusTask(t.history().size());
    }
    return c;
  }
}

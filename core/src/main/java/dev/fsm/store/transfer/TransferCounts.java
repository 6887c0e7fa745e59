package dev.fsm.store.transfer;

import java.util.Locale;

/** How many machine versions, tasks and history entries an export holds or an import wrote. */
public record TransferCounts(long versions, long tasks, long historyEntries) {

  /** Nothing yet. */
  public static final TransferCounts NONE = new TransferCounts(0, 0, 0);

  /** These counts with one more version. */
  public TransferCounts plusVersion() {
    return new TransferCounts(versions + 1, tasks, historyEntries);
  }

  /** These counts with one more task of {@code entries} history entries. */
  public TransferCounts plusTask(int entries) {
    return new TransferCounts(versions, tasks + 1, historyEntries + entries);
  }

  /** E.g. "3 machine versions, 10,000 tasks, 41,230 history entries". */
  public String summary() {
    return count(versions, "machine version") + ", " + count(tasks, "task") + ", "
        + count(historyEntries, "history entry", "history entries");
  }

  static String count(long n, String one) {
    return count(n, one, one + "s");
  }

  static String count(long n, String one, String many) {
    return String.format(Locale.ROOT, "%,d %s", n, n == 1 ? one : many);
  }
}

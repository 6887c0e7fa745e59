package dev.fsm.store.transfer;

import dev.fsm.store.MachineVersion;
import dev.fsm.store.Store;
import java.util.List;

/**
 * What an export reads: a store opened here ({@link #of}), or one a runner serves, read through
 * its control socket a page at a time. Either way the pages come from {@link #of}'s reading of the
 * store, so both export the same lines.
 */
public interface ExportSource {

  /** Every machine version, of every machine. */
  List<MachineVersion> allVersions();

  /** How many tasks there are now, for progress. */
  long taskCount();

  /** Up to {@code limit} tasks whose ids sort after {@code after} (from the first if null). */
  ExportPage page(String after, int limit);

  /** The export of {@code store}, read through the {@link Store} interface only. */
  static ExportSource of(Store store) {
    return new StorePages(store);
  }
}

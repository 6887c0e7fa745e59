package dev.fsm.cli.verb.store;

import dev.fsm.access.StoreAccess;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.store.Store;
import dev.fsm.store.StorePurpose;
import java.util.Locale;

/**
 * Opens the store that {@code --store} names for export and import, whatever its kind, as the
 * {@link Store} itself: both work through the Store interface only. An embedded store a runner
 * serves is refused, naming the runner, as neither can go through its control socket.
 */
final class TransferStores {

  private TransferStores() {}

  static Store open(GlobalOptions global, StorePurpose purpose, String verb, boolean create) {
    StoreAccess access = StoreAccess.standard();
    StoreAccess.Located at = access.locate(global.store(), purpose, verb, create);
    return access.store(at, purpose, verb, create, TaskAccess.notice(global));
  }

  /** Seconds since {@code startNanos}, e.g. "2.3 s". */
  static String seconds(long startNanos) {
    return String.format(Locale.ROOT, "%.1f s", (System.nanoTime() - startNanos) / 1e9);
  }
}

package dev.fsm.store.embedded.owner;

import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * What opening a store that another process holds does: refuse at once, or wait its turn in the
 * store's line ({@link StoreQueue}), as short-lived commands do.
 *
 * @param inLine whether to wait in line rather than refuse
 * @param notice told once, in one line, when the wait passes a second: who holds the store
 * @param servedElsewhere asked now and then while the holder is not a waiter ahead: true when
 *     the holder serves other commands (a runner's control socket answers), so waiting is pointless
 */
public record StoreWaiting(boolean inLine, Consumer<String> notice,
    BooleanSupplier servedElsewhere) {

  /** Refuse at once with {@link StoreInUseException}. */
  public static final StoreWaiting REFUSE = new StoreWaiting(false, m -> {}, () -> false);

  public StoreWaiting {
    Objects.requireNonNull(notice, "notice");
    Objects.requireNonNull(servedElsewhere, "servedElsewhere");
  }

  /** Wait in line, telling {@code notice} when it takes long, until served or held elsewhere. */
  public static StoreWaiting inLine(Consumer<String> notice, BooleanSupplier servedElsewhere) {
    return new StoreWaiting(true, notice, servedElsewhere);
  }
}

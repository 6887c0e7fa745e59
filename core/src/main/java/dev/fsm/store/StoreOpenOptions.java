package dev.fsm.store;

import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * How a verb opens a store, whatever its kind.
 *
 * @param verb the verb, e.g. {@code fsm send}, shown to others who find the store in use
 * @param create whether a missing store may be created (only {@code start} and {@code run})
 * @param waitInLine whether to wait while another process holds the store rather than refuse
 * @param notice told once, in one line, when a wait takes long: who holds the store
 * @param servedElsewhere asked now and then while waiting: true when the holder serves other
 *     commands itself, so waiting is pointless
 */
public record StoreOpenOptions(String verb, boolean create, boolean waitInLine,
    Consumer<String> notice, BooleanSupplier servedElsewhere) {

  private static final Consumer<String> SILENT = notice -> {};
  private static final BooleanSupplier NEVER = () -> false;

  public StoreOpenOptions {
    Objects.requireNonNull(verb, "verb");
    Objects.requireNonNull(notice, "notice");
    Objects.requireNonNull(servedElsewhere, "servedElsewhere");
  }

  /** Opening for {@code verb}: an existing store only, refused at once while held. */
  public static StoreOpenOptions of(String verb) {
    return new StoreOpenOptions(verb, false, false, SILENT, NEVER);
  }

  /** These options, creating a missing store or not. */
  public StoreOpenOptions create(boolean create) {
    return new StoreOpenOptions(verb, create, waitInLine, notice, servedElsewhere);
  }

  /** These options, waiting in line while another process holds the store. */
  public StoreOpenOptions inLine(Consumer<String> notice, BooleanSupplier servedElsewhere) {
    return new StoreOpenOptions(verb, create, true, notice, servedElsewhere);
  }
}

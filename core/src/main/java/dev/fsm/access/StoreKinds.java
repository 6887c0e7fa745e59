package dev.fsm.access;

import dev.fsm.store.StoreKind;
import dev.fsm.store.embedded.EmbeddedStoreKind;
import dev.fsm.store.postgres.PgStoreKind;
import java.util.List;

/** The kinds of store fsm can open, asked in order which one serves a location. */
public final class StoreKinds {

  /** Every kind; a location no kind accepts is refused. */
  public static final List<StoreKind> ALL = List.of(EmbeddedStoreKind.INSTANCE,
      PgStoreKind.INSTANCE);

  private StoreKinds() {}
}

package dev.fsm.store.embedded;

import dev.fsm.store.Store;
import dev.fsm.store.StoreContractTest;
import java.nio.file.Path;

/** The embedded store keeps the store contract, across closes and opens of its folder. */
class EmbeddedStoreTest extends StoreContractTest {

  @Override
  protected Store openStore(Path folder) {
    return EmbeddedStore.open(folder);
  }

  @Override
  protected Store reopen(Store old, Path folder) {
    old.close();
    return EmbeddedStore.open(folder);
  }
}

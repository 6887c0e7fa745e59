package dev.fsm.store.memory;

import dev.fsm.store.Store;
import dev.fsm.store.StoreContractTest;
import java.nio.file.Path;

/** The in-memory store keeps the store contract. */
class InMemoryStoreTest extends StoreContractTest {

  @Override
  protected Store openStore(Path folder) {
    return new InMemoryStore();
  }
}

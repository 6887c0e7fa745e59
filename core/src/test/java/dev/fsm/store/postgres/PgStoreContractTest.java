package dev.fsm.store.postgres;

import dev.fsm.store.Store;
import dev.fsm.store.StoreContractTest;
import java.nio.file.Path;

/** The PostgreSQL store keeps the store contract: one fresh schema per test. */
class PgStoreContractTest extends StoreContractTest {

  private PgUrl url;

  @Override
  protected Store openStore(Path folder) {
    url = PgUrl.parse(TestPostgres.server().freshUrl());
    return PgStore.open(url, true);
  }

  @Override
  protected boolean sharedByManyRunners() {
    return true;
  }

  @Override
  protected Store reopen(Store old, Path folder) {
    old.close();
    return PgStore.open(url, false);
  }
}

package dev.fsm.store.postgres;

import dev.fsm.store.Ownership;
import dev.fsm.store.ServerActivity;
import dev.fsm.store.Store;
import dev.fsm.store.StoreHealth;
import dev.fsm.store.StoreKind;
import dev.fsm.store.StoreLocation;
import dev.fsm.store.StoreOpenOptions;
import dev.fsm.store.StorePurpose;
import java.nio.file.Path;
import java.util.Optional;

/**
 * PostgreSQL as a kind of store: a schema in a database that every process opens itself, on
 * as many hosts as there are runners; nobody owns it, so there is no control socket.
 */
public final class PgStoreKind implements StoreKind {

  /** The one instance; the kind holds no state. */
  public static final PgStoreKind INSTANCE = new PgStoreKind();

  private PgStoreKind() {}

  @Override
  public String name() {
    return "PostgreSQL";
  }

  @Override
  public boolean accepts(StoreLocation location) {
    return location instanceof StoreLocation.Database;
  }

  @Override
  public Ownership ownership() {
    return Ownership.SHARED;
  }

  @Override
  public boolean exists(StoreLocation location) {
    return PgStore.exists(url(location));
  }

  @Override
  public void check(StoreLocation location, StorePurpose purpose, String verb, boolean create) {
    PgUrl url = url(location);
    // The store verbs (CHECK) decide for themselves what they do with a database.
    if (purpose != StorePurpose.CHECK && !create && !PgStore.exists(url)) {
      throw PgSchema.missing(url);
    }
  }

  @Override
  public Store open(StoreLocation location, StorePurpose purpose, StoreOpenOptions options) {
    return PgStore.open(url(location), options.create());
  }

  @Override
  public Optional<StoreHealth> health(StoreLocation location) {
    return Optional.of(PgHealth.of(url(location), location.text()));
  }

  @Override
  public Optional<ServerActivity> activity(StoreLocation location) {
    return Optional.of(PgActivity.read(url(location)));
  }

  @Override
  public Path socketFolder(StoreLocation location) {
    throw new IllegalStateException("a PostgreSQL store has no owner and no control socket");
  }

  private static PgUrl url(StoreLocation location) {
    if (location instanceof StoreLocation.Database db) {
      return PgUrl.parse(db.url());
    }
    throw new IllegalArgumentException("a PostgreSQL store lives in a database, not "
        + location);
  }
}

package dev.fsm.store;

import java.nio.file.Path;
import java.util.Optional;

/**
 * A kind of store (embedded, PostgreSQL...): which locations it serves, how it opens, and who may
 * hold it at once. The one list of kinds is {@code dev.fsm.access.StoreKinds}.
 */
public interface StoreKind {

  /** The kind's name in messages, such as "embedded". */
  String name();

  /** Whether this kind serves stores at {@code location}. */
  boolean accepts(StoreLocation location);

  /** Who may hold the store at once, and so how other processes reach it. */
  Ownership ownership();

  /** Whether a store exists at {@code location}; never creates one. */
  boolean exists(StoreLocation location);

  /**
   * Refuses, with a message saying what to do, a location where no store can be opened for
   * {@code purpose}: nothing there when {@code create} is false, or something that is not a
   * store. Runs before anything is opened, and before an owner is looked for.
   */
  void check(StoreLocation location, StorePurpose purpose, String verb, boolean create);

  /**
   * Opens the store at {@code location} for {@code purpose}.
   *
   * @throws StoreBusyException when another process holds it (after waiting, if asked)
   * @throws StoreDamagedException when its durable record is damaged
   */
  Store open(StoreLocation location, StorePurpose purpose, StoreOpenOptions options);

  /**
   * What {@code fsm store check} reports for a kind that has no journal of its own to check its
   * tables against (a database: schema version, vacuum health); empty for kinds checked
   * otherwise.
   */
  default Optional<StoreHealth> health(StoreLocation location) {
    return Optional.empty();
  }

  /**
   * The server's counters (commits in the store's database, log bytes written) for a kind kept
   * by a database server; empty for kinds that have none. One reading, on a connection of its
   * own, so a benchmark can take one before and one after.
   */
  default Optional<ServerActivity> activity(StoreLocation location) {
    return Optional.empty();
  }

  /**
   * For an {@link Ownership#OWNER_WITH_SOCKET} kind: the folder beside which the owner serves
   * its control socket; other kinds are never asked.
   */
  Path socketFolder(StoreLocation location);
}

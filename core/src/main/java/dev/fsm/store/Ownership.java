package dev.fsm.store;

/** Who may open a kind of store at once, which decides how other processes reach it. */
public enum Ownership {
  /** One process owns the store; the others talk to it over its control socket. */
  OWNER_WITH_SOCKET,
  /** Every process opens the store itself, as with a database server. */
  SHARED
}

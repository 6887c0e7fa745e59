package dev.fsm.store;

/**
 * What other processes did to a store that many processes open at once (PostgreSQL), heard as
 * it happens, so a runner stops or tells a running action at once instead of at its next lease
 * renewal. A hint, never the record: a lost event only delays what renewals and claims find
 * anyway.
 */
public interface StoreEvents {

  /**
   * Another process changed task {@code id} with {@code event}, the event or command of its new
   * history entry (such as {@code pause}, {@code kill}, a signal's event).
   */
  void taskChanged(String id, String event);

  /** Tasks may have become claimable in another process (started, resumed, redriven). */
  void workArrived();

  /** Another runner's circuit breaker of a machine opened or closed. */
  default void breakerChanged(BreakerNews news) {}

  /**
   * The store's events are heard from now on, after a time they were not (the first connection,
   * or one lost and made again): what happened meanwhile was not told, breaker news included.
   */
  default void heardAgain() {
    workArrived();
  }
}

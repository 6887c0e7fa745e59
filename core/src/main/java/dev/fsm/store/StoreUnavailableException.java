package dev.fsm.store;

import dev.fsm.FsmException;

/**
 * The store cannot be reached for now, such as a database server that went away or restarts:
 * nothing was changed by the call that failed, and a runner retries with backoff instead of
 * stopping. One-shot verbs report it like any error.
 */
public class StoreUnavailableException extends FsmException {

  public StoreUnavailableException(String message) {
    super(message);
  }

  public StoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}

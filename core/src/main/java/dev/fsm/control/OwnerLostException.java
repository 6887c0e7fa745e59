package dev.fsm.control;

import dev.fsm.store.OutcomeUnknownException;

/**
 * The store's owner hung up or went silent in the middle of a request: it stopped, was killed or
 * is stuck. Whether the request took effect is unknown; a reader that only polls (such as
 * {@code fsm watch}) may simply ask again, of the next owner or of the store itself.
 */
public final class OwnerLostException extends OutcomeUnknownException {

  public OwnerLostException(String message, Throwable cause) {
    super(message, cause);
  }
}

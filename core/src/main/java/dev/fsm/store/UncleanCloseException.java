package dev.fsm.store;

import dev.fsm.FsmException;

/**
 * A store closed without marking its index clean (a full disk, say) after everything it
 * acknowledged was made durable: nothing is lost, and its next open rebuilds the index. A
 * command whose work was done reports it as a warning, not a failure, so that a script does not
 * do that work again.
 */
public final class UncleanCloseException extends FsmException {

  public UncleanCloseException(String message, Throwable cause) {
    super(message, cause);
  }
}

package dev.fsm.store;

import dev.fsm.FsmException;

/**
 * A change the store could not confirm: it may or may not have been made (a write or a force
 * that failed part way, an owner that hung up before answering). A caller that reports what it
 * changed says so instead of claiming it changed nothing.
 */
public class OutcomeUnknownException extends FsmException {

  public OutcomeUnknownException(String message) {
    super(message);
  }

  public OutcomeUnknownException(String message, Throwable cause) {
    super(message, cause);
  }
}

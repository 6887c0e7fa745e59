package dev.fsm.store.transfer;

import dev.fsm.FsmException;

/** An export file that cannot be read: not one, cut short, a newer version, a malformed line. */
public final class TransferFileException extends FsmException {

  public TransferFileException(String message) {
    super(message);
  }

  public TransferFileException(String message, Throwable cause) {
    super(message, cause);
  }
}

package dev.fsm;

/**
 * A problem the user can act on: the message names the file, task or option and what to do.
 * The command line prints the message (never a stack trace) and exits with status 1.
 */
public class FsmException extends RuntimeException {

  public FsmException(String message) {
    super(message);
  }

  public FsmException(String message, Throwable cause) {
    super(message, cause);
  }
}

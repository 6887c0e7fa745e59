package dev.fsm;

/** The command line itself is wrong (a malformed option value, such as a store URL): exit 2. */
public class UsageException extends FsmException {

  public UsageException(String message) {
    super(message);
  }
}

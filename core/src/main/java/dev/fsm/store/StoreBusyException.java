package dev.fsm.store;

import dev.fsm.FsmException;
import java.util.OptionalLong;

/** The store is held by another process (or already open in this one), so it cannot be opened. */
public class StoreBusyException extends FsmException {

  private final OptionalLong ownerPid;

  public StoreBusyException(String message) {
    this(message, OptionalLong.empty());
  }

  public StoreBusyException(String message, OptionalLong ownerPid) {
    super(message);
    this.ownerPid = ownerPid;
  }

  /** The holder's process id, when it is known. */
  public OptionalLong ownerPid() {
    return ownerPid;
  }

  /** Whether the holder is this very process, where no wait can change anything. */
  public boolean heldHere() {
    OptionalLong pid = ownerPid();
    return pid.isPresent() && pid.getAsLong() == ProcessHandle.current().pid();
  }
}

package dev.fsm.store.embedded.owner;

import dev.fsm.store.StoreBusyException;
import java.util.OptionalLong;

/** The store folder is owned by another process (or already open in this one). */
public final class StoreInUseException extends StoreBusyException {

  private final OptionalLong ownerPid;

  StoreInUseException(String message, OptionalLong ownerPid) {
    super(message);
    this.ownerPid = ownerPid;
  }

  /** The owner's process id, when it could be read. */
  public OptionalLong ownerPid() {
    return ownerPid;
  }
}

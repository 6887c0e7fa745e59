package dev.fsm.access;

import dev.fsm.control.SocketControl;
import dev.fsm.operations.Operations;
import dev.fsm.store.StoreBusyException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;

/** The choice every verb makes: talk to the store's owner, or open the store itself. */
final class Controls {

  private static final long OWNER_WAIT_NANOS = 5_000_000_000L;
  private static final long POLL_MILLIS = 20;

  private Controls() {}

  /**
   * A {@link SocketControl} when a live owner answers on the store's control socket, else
   * {@code local.get()}. A socket file nobody listens on (left by a killed owner) counts as no
   * owner, as does a missing store folder ({@code local} reports that). When {@code local}
   * throws {@link StoreBusyException}, a runner took the store after the socket was tried: its
   * socket appears once it has opened the store, so both are retried for up to five seconds
   * before the exception is thrown. The owner may be this very process, such as a shell serving
   * its own socket.
   *
   * @param local opens the store in this process; called again on each retry
   */
  static Operations open(Path storeFolder, Supplier<Operations> local) {
    return open(storeFolder, local, OWNER_WAIT_NANOS);
  }

  static Operations open(Path storeFolder, Supplier<Operations> local, long ownerWaitNanos) {
    Optional<SocketControl> remote = SocketControl.connect(storeFolder);
    long deadline = System.nanoTime() + ownerWaitNanos;
    while (remote.isEmpty()) {
      try {
        return local.get();
      } catch (StoreBusyException e) {
        remote = SocketControl.connect(storeFolder);
        if (remote.isEmpty()) {
          // Held in this process without a socket: no wait changes that.
          if (e.heldHere() || System.nanoTime() - deadline >= 0) {
            throw e;
          }
          pause(e);
        }
      }
    }
    return remote.get();
  }

  /** Polling, as nothing can be waited on across processes; a runner binds soon after opening. */
  private static void pause(StoreBusyException e) {
    try {
      Thread.sleep(POLL_MILLIS);
    } catch (InterruptedException interrupted) {
      Thread.currentThread().interrupt();
      throw e;
    }
  }
}

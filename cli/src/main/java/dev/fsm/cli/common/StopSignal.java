package dev.fsm.cli.common;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Tells a live view to stop; Ctrl-C in the shell fires it, so the shell itself carries on. */
public final class StopSignal {

  private final CountDownLatch fired = new CountDownLatch(1);

  /** Asks the view to stop; it returns within one refresh. */
  public void fire() {
    fired.countDown();
  }

  /** Waits up to {@code pause}; true when the view should stop. */
  public boolean await(Duration pause) {
    try {
      return fired.await(pause.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }
}

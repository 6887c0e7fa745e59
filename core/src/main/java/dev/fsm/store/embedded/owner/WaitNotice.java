package dev.fsm.store.embedded.owner;

import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Tells a waiting command's user, once, who it waits for, as {@code git} does for a held lock:
 * either when the waiter asks ({@link #now}) or from a timer while it blocks ({@link #after}).
 */
final class WaitNotice implements AutoCloseable {

  private final Consumer<String> out;
  private final Supplier<String> message;
  private boolean told;
  private Thread timer;

  WaitNotice(Consumer<String> out, Supplier<String> message) {
    this.out = out;
    this.message = message;
  }

  /** Tells the user, unless told already. */
  synchronized void now() {
    if (!told) {
      told = true;
      out.accept(message.get());
    }
  }

  /** Tells the user after {@code nanos} unless closed first: for a wait that blocks. */
  synchronized void after(long nanos) {
    if (timer != null || told) {
      return;
    }
    timer = new Thread(() -> {
      try {
        Thread.sleep(nanos / 1_000_000L);
        now();
      } catch (InterruptedException e) {
        // Closed before it was time.
      }
    }, "fsm-wait-notice");
    timer.setDaemon(true);
    timer.start();
  }

  @Override
  public synchronized void close() {
    told = true;
    if (timer != null) {
      timer.interrupt();
    }
  }
}

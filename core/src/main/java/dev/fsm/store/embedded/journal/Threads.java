package dev.fsm.store.embedded.journal;

/** Waiting for the store's own background threads. */
public final class Threads {

  private Threads() {}

  /**
   * Waits until {@code thread} has ended, even when interrupted meanwhile (a store must not
   * close while its thread still works), and then interrupts the caller again if it was.
   */
  public static void joinUninterruptibly(Thread thread) {
    boolean interrupted = false;
    while (thread.isAlive()) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}

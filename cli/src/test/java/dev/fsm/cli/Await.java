package dev.fsm.cli;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition until it holds or a deadline passes: the ITs' only way to wait. */
final class Await {

  private Await() {}

  /**
   * Returns how long the condition took to hold.
   *
   * @throws AssertionError naming {@code what} when it does not hold within {@code limit}
   */
  static Duration until(String what, Duration limit, BooleanSupplier condition) {
    long start = System.nanoTime();
    long deadline = start + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("waited " + limit.toMillis() + " ms for " + what);
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("interrupted while waiting for " + what, e);
      }
    }
    return Duration.ofNanos(System.nanoTime() - start);
  }
}

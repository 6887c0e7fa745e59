package dev.fsm.engine;

import dev.fsm.store.StoreUnavailableException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * How a runner rides through a store that went away (a database server restarting or cut off):
 * the call is tried again with a doubling backoff, capped, until it answers or the runner stops;
 * the outage is said once when it starts and once when it ends, not on every retry. Nothing the
 * failed call would have changed was changed, so trying it again is safe.
 */
final class StoreOutage {

  static final Duration FIRST_WAIT = Duration.ofMillis(100);
  static final Duration LONGEST_WAIT = Duration.ofSeconds(5);

  /** Sleeps between tries; returns false when the wait was cut short because the runner stops. */
  interface Pause {
    boolean sleep(Duration wait);
  }

  private final RunListener listener;
  private final Pause pause;
  private final Object lock = new Object();
  private long downSince;
  /** When the last outage ended, by {@link System#nanoTime}; none has yet when no outage did. */
  private long upSince;
  private boolean ended;
  private boolean down;

  StoreOutage(RunListener listener, Pause pause) {
    this.listener = listener;
    this.pause = pause;
  }

  /**
   * The answer of {@code call}, tried again while the store is unavailable; empty when {@code
   * giveUp} says to stop trying (the runner is stopping at once).
   */
  <T> Optional<T> retry(String what, Supplier<T> call, BooleanSupplier giveUp) {
    return retry(what, call, giveUp, true);
  }

  /**
   * As {@link #retry}, for a call that may be answered from memory (a machine version read
   * once): its answer does not end an outage, as it may not have reached the store.
   */
  <T> Optional<T> retryMaybeCached(String what, Supplier<T> call, BooleanSupplier giveUp) {
    return retry(what, call, giveUp, false);
  }

  private <T> Optional<T> retry(String what, Supplier<T> call, BooleanSupplier giveUp,
      boolean answerIsTheStores) {
    Duration wait = FIRST_WAIT;
    while (true) {
      long asked = System.nanoTime();
      try {
        T answer = call.get();
        if (answerIsTheStores) {
          back(asked);
        }
        return Optional.ofNullable(answer);
      } catch (StoreUnavailableException e) {
        went(what, e, wait, asked);
        if (giveUp.getAsBoolean() || !pause.sleep(wait)) {
          return Optional.empty();
        }
        wait = longer(wait);
      }
    }
  }

  /** The wait after {@code wait}: twice as long, up to {@link #LONGEST_WAIT}. */
  static Duration longer(Duration wait) {
    Duration twice = wait.multipliedBy(2);
    return twice.compareTo(LONGEST_WAIT) > 0 ? LONGEST_WAIT : twice;
  }

  /**
   * A call asked at {@code asked} ({@link System#nanoTime}) failed because the store is
   * unavailable: said once per outage. Said under the lock, as {@link #back} is: said outside
   * it, another thread's call could end the outage and say so before its start was said. A
   * call asked before the last outage ended failed in that outage: it starts no new one.
   */
  void went(String what, StoreUnavailableException e, Duration wait, long asked) {
    synchronized (lock) {
      if (down || (ended && asked - upSince < 0)) {
        return;
      }
      down = true;
      downSince = System.nanoTime();
      listener.problem(RunListener.Topic.STORE_UNAVAILABLE, "store unavailable (" + what + "): "
          + e.getMessage() + "; retrying every " + seconds(wait) + " to "
          + seconds(LONGEST_WAIT) + ", nothing recorded is lost");
    }
  }

  /**
   * A call asked at {@code asked} answered: ends the outage, if there was one, saying how long
   * it lasted. A call asked before the outage began proves nothing about the store now.
   */
  void back(long asked) {
    synchronized (lock) {
      if (!down || asked - downSince < 0) {
        return;
      }
      down = false;
      ended = true;
      upSince = System.nanoTime();
      listener.problem(RunListener.Topic.STORE_AVAILABLE, "store reachable again after "
          + seconds(Duration.ofNanos(System.nanoTime() - downSince)) + "; carrying on");
    }
  }

  private static String seconds(Duration d) {
    long ms = d.toMillis();
    return ms < 1000 ? ms + " ms" : String.format(Locale.ROOT, "%.1f s", ms / 1000.0);
  }
}

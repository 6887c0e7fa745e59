package dev.fsm.engine;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;

/** The runner's timer thread, for lease renewals and attempts' timeouts ({@link TimeoutTimer}). */
final class Timers {

  private Timers() {}

  /**
   * One timer thread that forgets a cancelled timer at once. {@link TimeoutTimer} cancels its timer
   * whenever an earlier deadline comes; a scheduled executor keeps cancelled timers until their
   * delay runs out by default, and when every attempt had a timer of its own a runner's heap grew
   * with throughput times timeout (about 100 bytes each: 20k transitions/s under a 5-minute
   * timeout is 6 million timers, 600 MB).
   */
  static ScheduledThreadPoolExecutor start(ThreadFactory threads) {
    ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1, threads);
    timers.setRemoveOnCancelPolicy(true);
    return timers;
  }
}

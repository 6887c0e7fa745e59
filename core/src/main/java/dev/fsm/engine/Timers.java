package dev.fsm.engine;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;

/** The runner's timer thread, for lease renewals and attempts' timeouts. */
final class Timers {

  private Timers() {}

  /**
   * One timer thread that forgets a cancelled timer at once. Every attempt schedules its timeout
   * and cancels it when the action ends; a scheduled executor keeps cancelled timers until their
   * delay runs out by default, so a runner's heap grew with throughput times timeout (about 100
   * bytes each: 20k transitions/s under a 5-minute timeout is 6 million timers, 600 MB).
   */
  static ScheduledThreadPoolExecutor start(ThreadFactory threads) {
    ScheduledThreadPoolExecutor timers = new ScheduledThreadPoolExecutor(1, threads);
    timers.setRemoveOnCancelPolicy(true);
    return timers;
  }
}

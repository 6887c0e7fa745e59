package dev.fsm.engine;

import java.time.Duration;

/**
 * How a runner works.
 *
 * @param workers actions run at once
 * @param mode when the runner stops by itself
 * @param lease how long a claim holds before another runner may take the task; renewed every
 *     third of it while the action runs
 * @param shutdownGrace how long a graceful stop lets running actions finish before releasing them
 * @param maxIdleWait the longest the runner sleeps with nothing due, as a guard against a clock
 *     that jumps; new work from this process wakes it at once
 * @param owner the runner's name in leases and history, e.g. {@code runner:1234@host}
 */
public record RunnerOptions(int workers, Mode mode, Duration lease, Duration shutdownGrace,
    Duration maxIdleWait, String owner) {

  /** When a runner stops by itself. */
  public enum Mode {
    /** Never: until stopped. */
    FOREVER,
    /** Once nothing more can happen without outside input. */
    UNTIL_IDLE,
    /** After one pass over what is due at the start. */
    ONCE
  }

  public RunnerOptions {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be at least 1");
    }
  }

  /** Defaults: a 30 s lease, 10 s grace, waking at least every second. */
  public static RunnerOptions of(int workers, Mode mode, String owner) {
    return new RunnerOptions(workers, mode, Duration.ofSeconds(30), Duration.ofSeconds(10),
        Duration.ofSeconds(1), owner);
  }

  /** These options with another shutdown grace period. */
  public RunnerOptions withShutdownGrace(Duration grace) {
    return new RunnerOptions(workers, mode, lease, grace, maxIdleWait, owner);
  }
}

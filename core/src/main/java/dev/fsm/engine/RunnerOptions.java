package dev.fsm.engine;

import java.time.Duration;
import java.util.Set;

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
 * @param machines the only machines whose tasks this runner claims; empty for every machine
 * @param ahead how many tasks beyond its idle workers the runner may claim while actions are
 *     short (see {@link ClaimAhead}); 0 claims only for idle workers
 */
public record RunnerOptions(int workers, Mode mode, Duration lease, Duration shutdownGrace,
    Duration maxIdleWait, String owner, Set<String> machines, int ahead) {

  /**
   * Tasks `fsm run` claims ahead per worker while actions are short. On a shared store a claim
   * is a round trip, so it should serve many transitions; on any store, a worker that finds the
   * next task waiting starts it at once, where one that waits for the claim loop costs a hand-off
   * between threads per transition (measured on the embedded store: 1.54 context switches per
   * transition without, 0.70 with).
   */
  public static final int AHEAD_PER_WORKER = 4;

  /** When a runner stops by itself. */
  public enum Mode {
    /** Never: until stopped. */
    FOREVER,
    /** Once nothing more can happen without outside input. */
    UNTIL_IDLE,
    /** After one pass over what is due at the start. */
    ONCE
  }

  /** How much shorter than {@code lease} the grace must be: see {@link LeaseGuard}. */
  public static Duration leaseMargin(Duration lease) {
    return LeaseGuard.margin(lease);
  }

  /** The lease a runner takes unless told otherwise (SPEC section 7). */
  public static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);

  public RunnerOptions {
    if (workers < 1) {
      throw new IllegalArgumentException("workers must be at least 1");
    }
    if (!shutdownGrace.plus(LeaseGuard.margin(lease)).minus(lease).isNegative()) {
      // A runner that cannot renew stops its actions a grace and a margin before the lease ends.
      throw new IllegalArgumentException("the grace must be shorter than the lease by at least "
          + LeaseGuard.margin(lease).toMillis() + " ms");
    }
    machines = Set.copyOf(machines);
    if (ahead < 0) {
      throw new IllegalArgumentException("ahead must not be negative");
    }
  }

  /** Defaults: a 30 s lease, 10 s grace, waking at least every second. */
  public static RunnerOptions of(int workers, Mode mode, String owner) {
    return new RunnerOptions(workers, mode, DEFAULT_LEASE, Duration.ofSeconds(10),
        Duration.ofSeconds(1), owner, Set.of(), 0);
  }

  /** These options with another shutdown grace period. */
  public RunnerOptions withShutdownGrace(Duration grace) {
    return new RunnerOptions(workers, mode, lease, grace, maxIdleWait, owner, machines, ahead);
  }

  /** These options with another lease and grace; the grace must be shorter than the lease. */
  public RunnerOptions withLease(Duration lease, Duration grace) {
    return new RunnerOptions(workers, mode, lease, grace, maxIdleWait, owner, machines, ahead);
  }

  /** These options claiming only the tasks of {@code names}; empty for every machine. */
  public RunnerOptions onlyMachines(Set<String> names) {
    return new RunnerOptions(workers, mode, lease, shutdownGrace, maxIdleWait, owner, names,
        ahead);
  }

  /** These options claiming up to {@code tasks} ahead of idle workers while actions are short. */
  public RunnerOptions claimingAhead(int tasks) {
    return new RunnerOptions(workers, mode, lease, shutdownGrace, maxIdleWait, owner, machines,
        tasks);
  }
}

package dev.fsm.bench.fleet;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What {@code fsm bench --runners} measured.
 *
 * @param store the store, as shown in messages (a password masked)
 * @param runners runner processes
 * @param workers workers of each
 * @param tasks tasks enqueued, each completed
 * @param states no-op action states of each task
 * @param lease the runners' lease
 * @param transitions transitions the runners recorded
 * @param seconds from the first claim to the last completion
 * @param perRunner each runner's share, in the order they were started
 * @param cost what the server did per transition, for a kind kept by a server
 */
public record FleetBenchReport(String store, int runners, int workers, int tasks, int states,
    Duration lease, long transitions, double seconds, List<RunnerShare> perRunner,
    Optional<FleetFigures.Cost> cost) {

  public FleetBenchReport {
    perRunner = List.copyOf(perRunner);
  }

  /** Transitions per second, all runners together. */
  public double perSecond() {
    return seconds <= 0 ? 0 : transitions / seconds;
  }

  /**
   * One runner process's part.
   *
   * @param pid its process id
   * @param transitions the transitions it recorded
   * @param perSecond those over the whole run's time
   */
  public record RunnerShare(long pid, long transitions, double perSecond) {}
}

package dev.fsm.bench.runner;

import dev.fsm.bench.Latency;
import java.util.List;

/**
 * What {@code fsm bench} measured.
 *
 * @param runs one throughput run per worker count
 * @param halfLoad due-to-recorded latency with tasks arriving at half the fastest run's rate
 * @param halfLoadRate the transitions per second offered in that run
 * @param halfLoadWorkers the workers of that run
 * @param sendToAction from sending {@code checkpoint} over the control socket to the running
 *     action hearing it
 */
public record RunnerBenchReport(List<Run> runs, Latency halfLoad, double halfLoadRate,
    int halfLoadWorkers, Latency sendToAction) {

  /**
   * One throughput run: a backlog of tasks worked off by a runner.
   *
   * @param workers the runner's workers
   * @param tasks tasks started
   * @param states action states each task went through
   * @param transitions durable transitions recorded
   * @param seconds from the runner's start until every task completed
   * @param dueToRecorded latency from a transition's due time to its durable record, with the
   *     whole backlog due at once (so mostly queueing)
   */
  public record Run(int workers, int tasks, int states, long transitions, double seconds,
      Latency dueToRecorded) {

    /** Durable transitions per second. */
    public double perSecond() {
      return seconds == 0 ? 0 : transitions / seconds;
    }
  }
}

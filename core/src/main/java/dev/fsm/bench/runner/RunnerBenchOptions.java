package dev.fsm.bench.runner;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@code fsm bench} measures.
 *
 * @param parent the folder in which a temporary store folder is made and deleted
 * @param tasks tasks per throughput run
 * @param states action states in the synthetic machine's chain
 * @param workers the worker counts to measure, one run each
 * @param latencySeconds how long the paced half-load run lasts
 * @param sends commands sent to a running action for the send-to-action latency
 */
public record RunnerBenchOptions(Path parent, int tasks, int states, List<Integer> workers,
    double latencySeconds, int sends) {

  public RunnerBenchOptions {
    workers = List.copyOf(workers);
  }
}

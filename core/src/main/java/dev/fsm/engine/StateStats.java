package dev.fsm.engine;

import dev.fsm.task.TaskStatus;
import java.time.Duration;
import java.util.Map;

/**
 * What {@code fsm stats} shows for one state of a machine.
 *
 * @param machine the machine's name
 * @param state the state's name
 * @param counts tasks in the state by status; statuses with none are left out
 * @param samples successful attempts the durations are computed from
 * @param p50 median duration of successful attempts, or null without samples
 * @param p95 95th percentile, or null
 * @param p99 99th percentile, or null
 * @param errorRate errors per attempt in the sampled history, 0 to 1
 * @param timeout the timeout in force now, as text ({@code 30s}, {@code p95 = 1.2s}, {@code none})
 */
public record StateStats(
    String machine,
    String state,
    Map<TaskStatus, Long> counts,
    long samples,
    Duration p50,
    Duration p95,
    Duration p99,
    double errorRate,
    String timeout) {

  public StateStats {
    counts = Map.copyOf(counts);
  }
}

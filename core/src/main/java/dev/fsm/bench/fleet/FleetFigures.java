package dev.fsm.bench.fleet;

import dev.fsm.store.ServerActivity;
import dev.fsm.task.Transition;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The arithmetic of {@code fsm bench --runners}, from the tasks' histories: transitions per
 * runner, and the time from the first claim (the earliest attempt's start: its entry's time less
 * its duration) to the last completion (the latest entry).
 */
public final class FleetFigures {

  private final Map<String, Long> byRunner = new LinkedHashMap<>();
  private long transitions;
  private Instant first;
  private Instant last;

  /** Counts one history entry; operators' entries (not written by a runner) are left out. */
  public void add(Transition t) {
    String runner = runnerOf(t.by());
    if (runner == null) {
      return;
    }
    transitions++;
    byRunner.merge(runner, 1L, Long::sum);
    Instant start = t.time().minusMillis(t.durationMillis());
    first = first == null || start.isBefore(first) ? start : first;
    last = last == null || t.time().isAfter(last) ? t.time() : last;
  }

  /** Transitions the runners recorded. */
  public long transitions() {
    return transitions;
  }

  /** Transitions recorded by the runner of process {@code pid}, on any host. */
  public long transitionsOf(long pid) {
    String prefix = "runner:" + pid + "@";
    return byRunner.entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
        .mapToLong(Map.Entry::getValue).sum();
  }

  /** From the first claim to the last completion; zero before any entry. */
  public Duration window() {
    return first == null ? Duration.ZERO : Duration.between(first, last);
  }

  /** Seconds of {@link #window()}. */
  public double seconds() {
    return window().toNanos() / 1e9;
  }

  /** {@code count} over the window, per second; 0 for an empty window. */
  public double perSecond(long count) {
    double s = seconds();
    return s <= 0 ? 0 : count / s;
  }

  /** The server's work between two readings, per transition of these figures. */
  public Optional<Cost> cost(ServerActivity before, ServerActivity after) {
    ServerActivity d = after.since(before);
    if (transitions == 0) {
      return Optional.empty();
    }
    return Optional.of(new Cost(d.commits(), d.walBytes(), d.walSyncs(),
        (double) d.commits() / transitions, (double) d.walBytes() / transitions,
        d.walSyncs() < 0 ? -1 : (double) d.walSyncs() / transitions));
  }

  /**
   * What the transitions cost the server.
   *
   * @param commits transactions committed in the store's database
   * @param walBytes write-ahead log written by the server
   * @param walSyncs times the server forced its log to disk; negative when not counted
   * @param commitsPerTransition commits over transitions
   * @param walBytesPerTransition log bytes over transitions
   * @param walSyncsPerTransition log forces over transitions; negative when not counted
   */
  public record Cost(long commits, long walBytes, long walSyncs, double commitsPerTransition,
      double walBytesPerTransition, double walSyncsPerTransition) {}

  /** The runner part of a history entry's author, {@code runner:PID@HOST/wN}; null if none. */
  static String runnerOf(String by) {
    if (by == null || !by.startsWith("runner:")) {
      return null;
    }
    int worker = by.lastIndexOf("/w");
    return worker < 0 ? by : by.substring(0, worker);
  }
}

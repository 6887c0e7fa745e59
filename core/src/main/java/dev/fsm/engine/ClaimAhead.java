package dev.fsm.engine;

/**
 * How many tasks the next claim asks for. Without claiming ahead it is what idle workers can
 * take, so each claim is a round trip for one or two tasks when actions are short. A runner may
 * claim up to {@code ahead} more while its actions are short, and then in batches of at least
 * half that, so a claim serves many transitions and a worker finds its next task waiting. While
 * actions are long it claims only for idle workers: a runner holding tasks it cannot start soon
 * would keep them from idle runners elsewhere.
 */
final class ClaimAhead {

  /** Actions shorter than this on average are short enough to claim ahead for. */
  static final long SHORT_NANOS = 20_000_000L;
  /** Attempts measured before the mean is trusted. */
  private static final int SAMPLES = 8;

  private final int workers;
  private final int ahead;
  private double meanNanos;
  private int samples;

  ClaimAhead(int workers, int ahead) {
    this.workers = workers;
    this.ahead = ahead;
  }

  /** An attempt's action took {@code nanos}. */
  synchronized void ended(long nanos) {
    samples++;
    // A moving mean over about the last 16 attempts: a machine whose actions slow down stops
    // claiming ahead within a few of them.
    meanNanos = samples == 1 ? nanos : meanNanos + (nanos - meanNanos) / Math.min(samples, 16);
  }

  /**
   * How many tasks to claim now, with {@code running} actions running and {@code waiting}
   * claimed tasks waiting for a worker.
   */
  synchronized int claimSize(int running, int waiting) {
    boolean shortActions = ahead > 0 && samples >= SAMPLES && meanNanos < SHORT_NANOS;
    int room = workers + (shortActions ? ahead : 0) - running - waiting;
    if (room <= 0) {
      return 0;
    }
    if (running + waiting < workers) {
      return room;
    }
    return room >= Math.max(1, ahead / 2) ? room : 0;
  }
}

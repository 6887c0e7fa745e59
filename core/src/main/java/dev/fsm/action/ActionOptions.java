package dev.fsm.action;

import java.nio.file.Path;
import java.time.Duration;

/**
 * How a runner's actions run: the same for every worker.
 *
 * @param grace how long a stopped program has between SIGTERM and SIGKILL
 * @param outputCap bytes kept per output stream of a program; older output is dropped
 * @param plugins the folder whose jars hold {@code java:} actions, or null for none
 * @param ledger where running programs are recorded so the next runner can stop those a crash
 *     left behind, or null to keep no record
 */
public record ActionOptions(Duration grace, int outputCap, Path plugins, Path ledger) {

  /** Ten seconds of grace, 1 MiB per stream, no plugins. */
  public static final ActionOptions DEFAULTS =
      new ActionOptions(Duration.ofSeconds(10), 1 << 20, null, null);

  public ActionOptions {
    if (grace.isNegative()) {
      throw new IllegalArgumentException("grace period must not be negative: " + grace);
    }
    if (outputCap < 1024) {
      throw new IllegalArgumentException("output cap must be at least 1024 bytes: " + outputCap);
    }
  }

  /** These options with another grace period. */
  public ActionOptions withGrace(Duration newGrace) {
    return new ActionOptions(newGrace, outputCap, plugins, ledger);
  }

  /** These options with another output cap. */
  public ActionOptions withOutputCap(int bytes) {
    return new ActionOptions(grace, bytes, plugins, ledger);
  }

  /** These options with a plugin folder. */
  public ActionOptions withPlugins(Path folder) {
    return new ActionOptions(grace, outputCap, folder, ledger);
  }

  /** These options with a ledger of running programs in {@code folder}. */
  public ActionOptions withLedger(Path folder) {
    return new ActionOptions(grace, outputCap, plugins, folder);
  }
}

package dev.fsm.model;

import java.time.Duration;

/** How long one attempt of a state's action may run. */
public sealed interface Timeout {

  /** A fixed limit. */
  record Fixed(Duration limit) implements Timeout {}

  /** Adaptive: the given percentile of the state's recent successful durations. */
  record Percentile(double percentile) implements Timeout {}

  /** No limit, and the state is at-most-once: an interrupted attempt is never rerun. */
  record Never() implements Timeout {}

  /** The timeout states get when neither they nor the machine's defaults set one. */
  Timeout DEFAULT = new Percentile(95);

  /**
   * Parses {@code pNN}, a duration, or {@code 0}.
   *
   * @throws IllegalArgumentException with a message for the user when the text is neither
   */
  static Timeout parse(String text) {
    String t = text.strip();
    if (t.equals("0")) {
      return new Never();
    }
    if (t.startsWith("p")) {
      return new Percentile(Durations.parsePercentile(t));
    }
    Duration limit = Durations.parse(t);
    if (limit.isZero()) {
      return new Never();
    }
    return new Fixed(limit);
  }

  /** How the timeout is written in a machine file. */
  default String text() {
    if (this instanceof Fixed f) {
      return Durations.format(f.limit());
    } else if (this instanceof Percentile p) {
      return Durations.formatPercentile(p.percentile());
    }
    return "0";
  }
}

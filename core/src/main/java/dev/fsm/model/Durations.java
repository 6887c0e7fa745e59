package dev.fsm.model;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads and writes the durations of machine files: {@code 250ms}, {@code 30s}, {@code 1h30m}. */
public final class Durations {

  private static final Pattern PERCENTILE = Pattern.compile("p(\\d{1,2})(\\.\\d{1,3})?");
  private static final String[] UNITS = {"d", "h", "m", "s", "ms"};
  private static final long[] UNIT_MILLIS = {86_400_000L, 3_600_000L, 60_000L, 1_000L, 1L};
  private static final long MAX_MILLIS = 100L * 365 * 86_400_000L;

  /** The longest duration accepted anywhere (100 years): a later time would mean never. */
  public static final Duration MAX = Duration.ofMillis(MAX_MILLIS);

  private Durations() {}

  /**
   * Parses a duration.
   *
   * @throws IllegalArgumentException with a message for the user
   */
  public static Duration parse(String text) {
    String t = text.strip();
    if (t.isEmpty()) {
      throw new IllegalArgumentException("empty duration; write one like `30s`, `5m` or `1h30m`");
    }
    if (t.equals("0")) {
      return Duration.ZERO;
    }
    if (allDigits(t)) {
      throw new IllegalArgumentException(
          "duration `" + t + "` has no unit; write `" + t + "s`, `" + t + "m` or another unit");
    }
    // A hand-written scanner rather than a regex: this runs for every duration of every state
    // on each start of `fsm validate`, where an interpreted regex costs about a millisecond.
    int at = 0;
    int lastUnit = -1;
    long millis = 0;
    while (at < t.length()) {
      int digitsEnd = at;
      while (digitsEnd < t.length() && digitsEnd - at < 13 && isAsciiDigit(t.charAt(digitsEnd))) {
        digitsEnd++;
      }
      int unit = digitsEnd == at || digitsEnd - at > 12 ? -1 : unitAt(t, digitsEnd);
      if (unit < 0) {
        throw new IllegalArgumentException(
            "bad duration `" + t + "`; use a number and a unit (ms, s, m, h, d), like `30s` or"
                + " `1h30m`");
      }
      if (unit <= lastUnit) {
        throw new IllegalArgumentException(
            "bad duration `" + t + "`; give each unit once, largest first, like `1h30m`");
      }
      lastUnit = unit;
      try {
        millis = Math.addExact(millis,
            Math.multiplyExact(Long.parseLong(t.substring(at, digitsEnd)), UNIT_MILLIS[unit]));
      } catch (ArithmeticException e) {
        millis = Long.MAX_VALUE;
      }
      at = digitsEnd + UNITS[unit].length();
    }
    if (millis > MAX_MILLIS) {
      throw new IllegalArgumentException("duration `" + t + "` is longer than 100 years");
    }
    return Duration.ofMillis(millis);
  }

  /**
   * Parses a percentile such as {@code p95} or {@code p99.9}.
   *
   * @throws IllegalArgumentException with a message for the user
   */
  public static double parsePercentile(String text) {
    Matcher m = PERCENTILE.matcher(text.strip());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "bad percentile `" + text.strip() + "`; write one like `p95` or `p99.9`");
    }
    double p = Double.parseDouble(m.group(1) + (m.group(2) == null ? "" : m.group(2)));
    if (p <= 0) {
      throw new IllegalArgumentException("percentile `" + text.strip() + "` must be above p0");
    }
    return p;
  }

  /** Writes a duration the way a machine file would, e.g. {@code 1h30m}. */
  public static String format(Duration duration) {
    long millis = duration.toMillis();
    if (millis == 0) {
      return "0s";
    }
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < UNITS.length; i++) {
      long n = millis / UNIT_MILLIS[i];
      if (n > 0) {
        out.append(n).append(UNITS[i]);
        millis -= n * UNIT_MILLIS[i];
      }
    }
    return out.toString();
  }

  /** Writes a percentile as {@code p95} or {@code p99.9}. */
  public static String formatPercentile(double percentile) {
    if (percentile == Math.rint(percentile)) {
      return "p" + (long) percentile;
    }
    return "p" + String.format(Locale.ROOT, "%s", percentile);
  }

  private static boolean allDigits(String t) {
    for (int i = 0; i < t.length(); i++) {
      if (!Character.isDigit(t.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** The index in {@link #UNITS} of the unit starting at {@code at}, or -1. */
  private static int unitAt(String t, int at) {
    if (t.startsWith("ms", at)) {
      return 4;
    }
    for (int i = 0; i < 4; i++) {
      if (t.startsWith(UNITS[i], at)) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isAsciiDigit(char c) {
    return c >= '0' && c <= '9';
  }
}

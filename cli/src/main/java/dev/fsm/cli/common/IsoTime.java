package dev.fsm.cli.common;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;

/**
 * Times as fsm prints them for programs: ISO-8601 UTC with exactly three fraction digits, so
 * that every time has one width and one shape ({@code 2026-11-29T17:00:00.000Z}), where
 * {@link Instant#toString()} drops a zero fraction and shows as many digits as it has.
 */
public final class IsoTime {

  private static final DateTimeFormatter MILLIS =
      new DateTimeFormatterBuilder().appendInstant(3).toFormatter();

  private IsoTime() {}

  /** {@code t} to the millisecond (truncated), or null for null. */
  public static String of(Instant t) {
    return t == null ? null : MILLIS.format(t);
  }
}

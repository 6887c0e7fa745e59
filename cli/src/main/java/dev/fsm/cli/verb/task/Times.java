package dev.fsm.cli.verb.task;

import dev.fsm.model.Durations;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads the times users give to {@code --at} and {@code --until}: ISO-8601 (with an offset, or
 * local time in this machine's zone), a duration from now such as {@code 10m}, or {@code now}.
 */
final class Times {

  /** Earliest time accepted; with {@link #LATEST}, every time fits the store's milliseconds. */
  static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");

  /** Latest time accepted: far beyond any plan, far within what the store can hold. */
  static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999Z");

  private Times() {}

  /**
   * The instant {@code text} names, between {@link #EARLIEST} and {@link #LATEST}.
   *
   * @throws IllegalArgumentException with a message for the user
   */
  static Instant parse(String text, Clock clock) {
    String t = text.strip();
    Instant when = instant(t, clock);
    if (when.isBefore(EARLIEST) || when.isAfter(LATEST)) {
      throw new IllegalArgumentException("`" + t + "` is out of range; give a time between"
          + " 0001-01-01 and 9999-12-31");
    }
    return when;
  }

  private static Instant instant(String t, Clock clock) {
    if (t.equalsIgnoreCase("now")) {
      return clock.instant();
    }
    if (!t.isEmpty() && Character.isDigit(t.charAt(0)) && !t.contains("-")) {
      return clock.instant().plus(Durations.parse(t));
    }
    ZoneId zone = clock.getZone();
    try {
      return OffsetDateTime.parse(t).toInstant();
    } catch (DateTimeException e) {
      // not with an offset; try the local forms below
    }
    try {
      return LocalDateTime.parse(t).atZone(zone).toInstant();
    } catch (DateTimeException e) {
      // not a local date and time either
    }
    try {
      return LocalDate.parse(t).atStartOfDay(zone).toInstant();
    } catch (DateTimeException e) {
      throw new IllegalArgumentException("`" + t + "` is neither a time nor a duration; write"
          + " an ISO-8601 time like 2030-01-31T09:00:00Z or 2030-01-31T10:00, or a duration"
          + " from now like 10m or 1h30m, or now");
    }
  }

  /** Converts option values, so a bad time is a usage error naming the option. */
  static final class Converter implements ITypeConverter<Instant> {
    @Override
    public Instant convert(String value) {
      try {
        return parse(value, Clock.systemDefaultZone());
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}

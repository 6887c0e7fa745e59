package dev.fsm.cli.verb.task;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * How JSON documents write times: ISO-8601 UTC to the millisecond. Its own class so that the
 * fast send path can use it without loading {@link TaskJson}'s ObjectMapper.
 */
final class JsonTime {

  private JsonTime() {}

  /** The time as ISO-8601 UTC to the millisecond, or null. */
  static String of(Instant t) {
    return t == null ? null
        : DateTimeFormatter.ISO_INSTANT.format(t.truncatedTo(ChronoUnit.MILLIS));
  }
}

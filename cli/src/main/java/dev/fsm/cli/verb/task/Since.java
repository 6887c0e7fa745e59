package dev.fsm.cli.verb.task;

import dev.fsm.model.Durations;
import java.time.Clock;
import java.time.Instant;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Reads {@code --since}: a duration back from now ({@code 24h}, {@code 30m}, {@code 7d}), or an
 * ISO-8601 time as {@code --at} takes it ({@link Times}).
 */
final class Since implements ITypeConverter<Instant> {

  private final Clock clock;

  /** Durations counted back from this machine's clock, times read in its zone. */
  Since() {
    this(Clock.systemDefaultZone());
  }

  Since(Clock clock) {
    this.clock = clock;
  }

  @Override
  public Instant convert(String value) {
    String t = value.strip();
    if (!t.isEmpty() && Character.isDigit(t.charAt(0)) && !t.contains("-")) {
      try {
        return clock.instant().minus(Durations.parse(t));
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
    try {
      return Times.parse(t, clock);
    } catch (IllegalArgumentException e) {
      throw new TypeConversionException(e.getMessage().contains("out of range") ? e.getMessage()
          : "`" + t + "` is neither a duration back from now like 24h, 30m or 7d nor an"
              + " ISO-8601 time like 2026-11-24T09:00 or 2026-11-24T09:00:00Z");
    }
  }
}

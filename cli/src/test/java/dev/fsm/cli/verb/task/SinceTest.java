package dev.fsm.cli.verb.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

/** {@code --since}: durations back from now, ISO times, and what is refused. */
class SinceTest {

  private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
  private final Since since = new Since(Clock.fixed(NOW, ZoneId.of("Europe/Berlin")));

  @Test
  void aDurationCountsBackFromNow() {
    assertThat(since.convert("24h")).isEqualTo(Instant.parse("2026-11-24T10:00:00Z"));
    assertThat(since.convert("30m")).isEqualTo(Instant.parse("2026-11-25T09:30:00Z"));
    assertThat(since.convert("7d")).isEqualTo(Instant.parse("2026-11-18T10:00:00Z"));
    assertThat(since.convert(" 1h30m ")).isEqualTo(Instant.parse("2026-11-25T08:30:00Z"));
  }

  @Test
  void aTimeIsReadWithItsOffsetOrInThisMachinesZone() {
    assertThat(since.convert("2026-11-24T09:00:00Z")).isEqualTo(
        Instant.parse("2026-11-24T09:00:00Z"));
    assertThat(since.convert("2026-11-24T09:00")).isEqualTo(
        Instant.parse("2026-11-24T08:00:00Z"));
    assertThat(since.convert("2026-11-24")).isEqualTo(Instant.parse("2026-11-23T23:00:00Z"));
  }

  @Test
  void anythingElseIsRefusedSayingWhatIsAccepted() {
    assertThatThrownBy(() -> since.convert("yesterday"))
        .isInstanceOf(TypeConversionException.class)
        .hasMessage("`yesterday` is neither a duration back from now like 24h, 30m or 7d nor an"
            + " ISO-8601 time like 2026-11-24T09:00 or 2026-11-24T09:00:00Z");
    assertThatThrownBy(() -> since.convert("5x")).isInstanceOf(TypeConversionException.class)
        .hasMessageContaining("5x");
    assertThatThrownBy(() -> since.convert("99999999d"))
        .isInstanceOf(TypeConversionException.class).hasMessageContaining("100 years");
    assertThatThrownBy(() -> since.convert("")).isInstanceOf(TypeConversionException.class);
  }
}

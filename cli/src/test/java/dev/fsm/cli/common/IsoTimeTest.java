package dev.fsm.cli.common;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class IsoTimeTest {

  @Test
  void everyTimeHasThreeFractionDigits() {
    assertThat(IsoTime.of(Instant.parse("2026-11-29T17:00:00Z")))
        .isEqualTo("2026-11-29T17:00:00.000Z");
    assertThat(IsoTime.of(Instant.parse("2026-11-29T17:00:00.100Z")))
        .isEqualTo("2026-11-29T17:00:00.100Z");
  }

  @Test
  void finerTimesAreTruncatedToTheMillisecond() {
    assertThat(IsoTime.of(Instant.parse("2026-11-29T17:00:00.123987654Z")))
        .isEqualTo("2026-11-29T17:00:00.123Z");
  }

  @Test
  void noTimeIsNull() {
    assertThat(IsoTime.of(null)).isNull();
  }
}

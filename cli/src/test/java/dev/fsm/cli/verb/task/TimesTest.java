package dev.fsm.cli.verb.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

class TimesTest {

  private static final Instant NOW = Instant.parse("2030-01-31T09:00:00Z");
  private static final Clock PARIS = Clock.fixed(NOW, ZoneId.of("Europe/Paris"));

  @Test
  void aDurationIsFromNow() {
    assertThat(Times.parse("10m", PARIS)).isEqualTo(NOW.plusSeconds(600));
    assertThat(Times.parse("1h30m", PARIS)).isEqualTo(NOW.plusSeconds(5400));
  }

  @Test
  void nowIsNow() {
    // What fsm advises for a parked task: `fsm send ID sleep --until now`.
    assertThat(Times.parse("now", PARIS)).isEqualTo(NOW);
    assertThat(Times.parse(" NOW ", PARIS)).isEqualTo(NOW);
  }

  @Test
  void isoTimesWithAnOffsetOrInTheLocalZone() {
    assertThat(Times.parse("2030-02-01T10:00:00Z", PARIS))
        .isEqualTo(Instant.parse("2030-02-01T10:00:00Z"));
    assertThat(Times.parse("2030-02-01T10:00+02:00", PARIS))
        .isEqualTo(Instant.parse("2030-02-01T08:00:00Z"));
    assertThat(Times.parse("2030-02-01T10:00", PARIS))
        .isEqualTo(Instant.parse("2030-02-01T09:00:00Z"));
    assertThat(Times.parse("2030-02-01", PARIS))
        .isEqualTo(Instant.parse("2030-01-31T23:00:00Z"));
  }

  @Test
  void anythingElseSaysWhatToWrite() {
    assertThatThrownBy(() -> Times.parse("tomorrow", PARIS))
        .hasMessageContaining("`tomorrow` is neither a time nor a duration")
        .hasMessageContaining("10m");
    assertThatThrownBy(() -> Times.parse("10", PARIS)).hasMessageContaining("has no unit");
  }

  @Test
  void timesBeyondTheYears1To9999AreRefusedWithTheRange() {
    for (String far : new String[] {"+999999999-12-31T23:59:59Z", "-999999999-01-01T00:00:00Z",
        "+10000-01-01T00:00:00Z", "+999999999-12-31T23:59:59", "+999999999-12-31"}) {
      assertThatThrownBy(() -> Times.parse(far, PARIS)).as(far)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("`" + far + "` is out of range; give a time between 0001-01-01 and"
              + " 9999-12-31");
    }
    assertThat(Times.parse("9999-12-31T23:59:59Z", PARIS))
        .isEqualTo(Instant.parse("9999-12-31T23:59:59Z"));
  }
}

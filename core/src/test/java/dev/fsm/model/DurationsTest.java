package dev.fsm.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {

  @ParameterizedTest
  @CsvSource({
      "250ms, 250",
      "30s, 30000",
      "5m, 300000",
      "4h, 14400000",
      "2d, 172800000",
      "1h30m, 5400000",
      "1d2h3m4s5ms, 93784005",
      "' 10s ', 10000",
      "0, 0",
      "0s, 0",
      "0ms, 0",
  })
  void parsesEveryUnitAndCombinations(String text, long millis) {
    assertThat(Durations.parse(text)).isEqualTo(Duration.ofMillis(millis));
  }

  @Test
  void aNumberWithoutUnitSuggestsOne() {
    assertThatThrownBy(() -> Durations.parse("30"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("duration `30` has no unit; write `30s`, `30m` or another unit");
  }

  @Test
  void unitsMustComeLargestFirstAndOnce() {
    assertThatThrownBy(() -> Durations.parse("30m1h"))
        .hasMessage("bad duration `30m1h`; give each unit once, largest first, like `1h30m`");
    assertThatThrownBy(() -> Durations.parse("1h1h"))
        .hasMessageContaining("give each unit once");
    assertThatThrownBy(() -> Durations.parse("1s5ms1s"))
        .hasMessageContaining("give each unit once");
  }

  @ParameterizedTest
  @ValueSource(strings = {"5x", "ms", "s30", "1.5h", "-1s", "1 h", "1h 30m", "30sec", "PT30S",
      "1h30", "1000000000000s", "١٠s"})
  void garbageIsRejectedWithAnExample(String text) {
    assertThatThrownBy(() -> Durations.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("`" + text.strip() + "`");
  }

  @Test
  void emptyIsRejected() {
    assertThatThrownBy(() -> Durations.parse("  "))
        .hasMessageStartingWith("empty duration");
  }

  @Test
  void absurdlyLongDurationsAreRejectedNotOverflowed() {
    assertThatThrownBy(() -> Durations.parse("36501d"))
        .hasMessage("duration `36501d` is longer than 100 years");
    assertThatThrownBy(() -> Durations.parse("999999999999d"))
        .hasMessageContaining("longer than 100 years");
    assertThat(Durations.parse("36500d")).isEqualTo(Duration.ofDays(36500));
  }

  @ParameterizedTest
  @CsvSource({"p95, 95", "p99.9, 99.9", "p50, 50", "p1, 1", "p0.5, 0.5", "p99.999, 99.999"})
  void parsesPercentiles(String text, double expected) {
    assertThat(Durations.parsePercentile(text)).isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(strings = {"p100", "p", "95", "p-5", "p95%", "P95", "p9.", "p99.9999", "pfoo"})
  void rejectsBadPercentiles(String text) {
    assertThatThrownBy(() -> Durations.parsePercentile(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("bad percentile `" + text + "`");
  }

  @Test
  void rejectsPercentileZero() {
    assertThatThrownBy(() -> Durations.parsePercentile("p0"))
        .hasMessage("percentile `p0` must be above p0");
  }

  @Test
  void formatsTheWayAMachineFileWould() {
    assertThat(Durations.format(Duration.ZERO)).isEqualTo("0s");
    assertThat(Durations.format(Duration.ofMinutes(90))).isEqualTo("1h30m");
    assertThat(Durations.format(Duration.ofMillis(250))).isEqualTo("250ms");
    assertThat(Durations.format(Duration.ofMillis(93_784_005))).isEqualTo("1d2h3m4s5ms");
    assertThat(Durations.formatPercentile(95)).isEqualTo("p95");
    assertThat(Durations.formatPercentile(99.9)).isEqualTo("p99.9");
  }

  @ParameterizedTest
  @ValueSource(strings = {"250ms", "30s", "1h30m", "2d", "1d2h3m4s5ms", "59m59s999ms"})
  void formatRoundTrips(String text) {
    assertThat(Durations.format(Durations.parse(text))).isEqualTo(text);
  }

  @Test
  void timeoutsAreAPercentileADurationOrNever() {
    assertThat(Timeout.parse("p95")).isEqualTo(new Timeout.Percentile(95));
    assertThat(Timeout.parse("30s")).isEqualTo(new Timeout.Fixed(Duration.ofSeconds(30)));
    assertThat(Timeout.parse("0")).isEqualTo(new Timeout.Never());
    assertThat(Timeout.parse("0s")).isEqualTo(new Timeout.Never());
    assertThat(Timeout.parse("1h30m").text()).isEqualTo("1h30m");
    assertThat(Timeout.parse("p99.9").text()).isEqualTo("p99.9");
    assertThat(Timeout.parse("0").text()).isEqualTo("0");
    assertThatThrownBy(() -> Timeout.parse("soon")).isInstanceOf(IllegalArgumentException.class);
  }
}

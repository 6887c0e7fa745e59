package dev.fsm.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BackoffTest {

  private static final Backoff SHIP =
      new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(5), 2.0, 0.2);

  @Test
  void growsByTheMultiplierPerError() {
    Backoff noJitter = new Backoff(Duration.ofSeconds(1), Duration.ofMinutes(5), 2.0, 0.0);
    assertThat(noJitter.delay(1, 0.5)).isEqualTo(Duration.ofSeconds(1));
    assertThat(noJitter.delay(2, 0.5)).isEqualTo(Duration.ofSeconds(2));
    assertThat(noJitter.delay(3, 0.5)).isEqualTo(Duration.ofSeconds(4));
    assertThat(noJitter.delay(9, 0.5)).isEqualTo(Duration.ofSeconds(256));
  }

  @Test
  void isCappedAtMax() {
    assertThat(SHIP.delay(10, 0.5)).isEqualTo(Duration.ofMinutes(5));
    assertThat(SHIP.delay(Integer.MAX_VALUE, 0.5)).isEqualTo(Duration.ofMinutes(5));
  }

  @Test
  void errorNumbersBelowOneCountAsTheFirst() {
    assertThat(SHIP.delay(0, 0.5)).isEqualTo(Duration.ofSeconds(1));
    assertThat(SHIP.delay(-3, 0.5)).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void jitterSpreadsAroundTheBase() {
    assertThat(SHIP.delay(1, 0.0)).isEqualTo(Duration.ofMillis(800));
    assertThat(SHIP.delay(1, 0.5)).isEqualTo(Duration.ofMillis(1000));
    assertThat(SHIP.delay(1, 0.75)).isEqualTo(Duration.ofMillis(1100));
    assertThat(SHIP.delay(10, 0.0)).isEqualTo(Duration.ofMinutes(4));
  }

  @Test
  void jitteredDelaysStayInRangeAndNeverNegative() {
    Backoff full = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(10), 3.0, 1.0);
    Random random = new Random(7);
    for (int i = 0; i < 10_000; i++) {
      int n = 1 + random.nextInt(20);
      double u = random.nextDouble();
      Duration d = full.delay(n, u);
      double base = Math.min(100 * Math.pow(3, n - 1), 10_000);
      assertThat(d.toMillis()).isBetween(0L, Math.round(base * 2));
      assertThat(SHIP.delay(n, u).toMillis()).isBetween(800L, 360_000L);
    }
  }

  @Test
  void fixedIsTheSamePauseEveryTime() {
    Backoff fixed = Backoff.fixed(Duration.ofMinutes(10));
    assertThat(fixed.delay(1, 0.0)).isEqualTo(Duration.ofMinutes(10));
    assertThat(fixed.delay(50, 0.99)).isEqualTo(Duration.ofMinutes(10));
    assertThat(Backoff.fixed(Duration.ZERO).delay(3, 0.3)).isZero();
  }

  @Test
  void rejectsInconsistentSettings() {
    Duration s = Duration.ofSeconds(1);
    assertThatThrownBy(() -> new Backoff(Duration.ofMinutes(5), s, 2, 0))
        .hasMessage("backoff max must not be shorter than initial");
    assertThatThrownBy(() -> new Backoff(s.negated(), s, 2, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(s, s, 0.5, 0))
        .hasMessage("backoff multiplier must be at least 1");
    assertThatThrownBy(() -> new Backoff(s, s, Double.NaN, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(s, s, Double.POSITIVE_INFINITY, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(s, s, 2, 1.5))
        .hasMessage("backoff jitter must be between 0 and 1");
    assertThatThrownBy(() -> new Backoff(s, s, 2, -0.1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Backoff(s, s, 2, Double.NaN))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void retryPolicyRejectsZeroErrorsAndEmptyWindows() {
    Backoff b = Backoff.fixed(Duration.ofSeconds(1));
    assertThatThrownBy(() -> new RetryPolicy(0, Duration.ofHours(1), b))
        .hasMessage("max_errors must be at least 1");
    assertThatThrownBy(() -> new RetryPolicy(1, Duration.ZERO, b))
        .hasMessage("window must be longer than 0");
    assertThat(RetryPolicy.DEFAULT)
        .isEqualTo(new RetryPolicy(8, Duration.ofHours(4), Backoff.fixed(Duration.ofMinutes(10))));
  }
}

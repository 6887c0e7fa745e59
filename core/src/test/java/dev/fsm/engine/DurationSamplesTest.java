package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The window forgets its oldest samples, and its percentiles are exactly nearest-rank. */
class DurationSamplesTest {

  @Test
  void nothingKeptHasNoPercentile() {
    assertThat(new DurationSamples(3).percentile(50)).isNull();
  }

  @Test
  void theOldestAreForgottenOnceTheWindowIsFull() {
    DurationSamples s = new DurationSamples(3);
    for (long ms : new long[] {9_000, 9_000, 9_000, 10, 20, 30}) {
      s.add(Duration.ofMillis(ms));
    }
    assertThat(s.count()).isEqualTo(3);
    assertThat(s.percentile(100)).isEqualTo(Duration.ofMillis(30));
    assertThat(s.percentile(50)).isEqualTo(Duration.ofMillis(20));
    assertThat(s.percentile(0)).isEqualTo(Duration.ofMillis(10));
  }

  @Test
  void percentilesAreExactlyTheNearestRankOfTheWindow() {
    SplittableRandom random = new SplittableRandom(7);
    int window = 200;
    DurationSamples s = new DurationSamples(window);
    long[] all = new long[5_000];
    for (int i = 0; i < all.length; i++) {
      all[i] = (long) (-Math.log(1 - random.nextDouble()) * 1_500);
      s.add(Duration.ofMillis(all[i]));
      if (i < window - 1 || i % 97 != 0) {
        continue;
      }
      long[] last = Arrays.copyOfRange(all, i - window + 1, i + 1);
      Arrays.sort(last);
      for (double p : new double[] {50, 95, 99}) {
        long exact = last[(int) Math.ceil(p / 100 * window) - 1];
        long got = s.percentile(p).toMillis();
        // Exact, as a timeout shown to users (p95 = 5m) must be a duration that was measured.
        assertThat(got).as("p%s after %d samples", p, i + 1).isEqualTo(exact);
      }
    }
  }

  @Test
  void aNegativeDurationCountsAsZero() {
    DurationSamples s = new DurationSamples(2);
    s.add(Duration.ofMillis(-5));
    assertThat(s.percentile(50)).isEqualTo(Duration.ZERO);
  }
}

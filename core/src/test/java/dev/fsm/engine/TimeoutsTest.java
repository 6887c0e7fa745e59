package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.model.Timeout;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The timeout in force: fixed, none, or a percentile of recent successes within bounds. */
class TimeoutsTest {

  @Test
  void fixedAndNeverTimeoutsAreWhatTheMachineSays() {
    DurationSamples none = new DurationSamples(10);
    assertThat(Timeouts.limit(new Timeout.Fixed(Duration.ofSeconds(30)), none))
        .isEqualTo(new Timeouts.Limit(Duration.ofSeconds(30), "30s"));
    assertThat(Timeouts.limit(new Timeout.Never(), none).limit()).isNull();
    assertThat(Timeouts.limit(new Timeout.Never(), none).text()).contains("at-most-once");
  }

  @Test
  void aPercentileUsesTheDefaultUntilEnoughSamplesExist() {
    DurationSamples samples = new DurationSamples(Timeouts.WINDOW);
    for (int i = 0; i < Timeouts.MIN_SAMPLES - 1; i++) {
      samples.add(Duration.ofSeconds(3));
    }
    Timeouts.Limit early = Timeouts.limit(new Timeout.Percentile(95), samples);
    assertThat(early.limit()).isEqualTo(Timeouts.DEFAULT);
    assertThat(early.text()).isEqualTo("p95: 5m until 20 samples (19 so far)");
    samples.add(Duration.ofSeconds(3));
    assertThat(Timeouts.limit(new Timeout.Percentile(95), samples))
        .isEqualTo(new Timeouts.Limit(Duration.ofSeconds(3), "p95 = 3s (20 samples)"));
  }

  @Test
  void aPercentileIsTheNearestRankOfRecentSuccessesWithinTheFloorAndCeiling() {
    DurationSamples samples = new DurationSamples(Timeouts.WINDOW);
    for (int i = 1; i <= 100; i++) {
      samples.add(Duration.ofSeconds(i));
    }
    assertThat(Timeouts.limit(new Timeout.Percentile(95), samples).limit())
        .isEqualTo(Duration.ofSeconds(95));
    assertThat(Timeouts.limit(new Timeout.Percentile(50), samples).limit())
        .isEqualTo(Duration.ofSeconds(50));

    DurationSamples fast = new DurationSamples(Timeouts.WINDOW);
    DurationSamples slow = new DurationSamples(Timeouts.WINDOW);
    for (int i = 0; i < 50; i++) {
      fast.add(Duration.ofMillis(20));
      slow.add(Duration.ofHours(3));
    }
    assertThat(Timeouts.limit(new Timeout.Percentile(99), fast).limit()).isEqualTo(Timeouts.FLOOR);
    assertThat(Timeouts.limit(new Timeout.Percentile(99), slow).limit())
        .isEqualTo(Timeouts.CEILING);
  }

  @Test
  void onlyTheLastWindowOfSamplesCounts() {
    DurationSamples samples = new DurationSamples(4);
    for (long s : new long[] {100, 100, 100, 100, 2, 2, 2, 2}) {
      samples.add(Duration.ofSeconds(s));
    }
    assertThat(samples.count()).isEqualTo(4);
    assertThat(samples.percentile(99)).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void theRunnersTimeoutsKeepSamplesPerMachineAndState() {
    Timeouts timeouts = new Timeouts();
    for (int i = 0; i < 30; i++) {
      timeouts.succeeded("order", "pay", Duration.ofSeconds(2));
    }
    assertThat(timeouts.samplesOf("order", "pay").count()).isEqualTo(30);
    assertThat(timeouts.samplesOf("order", "ship").count()).isZero();
    assertThat(timeouts.samplesOf("crawl", "pay").count()).isZero();
  }
}

package dev.fsm.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

import org.junit.jupiter.api.Test;

/** Nearest-rank percentiles within HdrHistogram's 0.1%, merging, and the empty case. */
class LatencyRecorderTest {

  private static final double PRECISION = 0.1;

  @Test
  void percentilesAreNearestRank() {
    LatencyRecorder r = new LatencyRecorder();
    for (int ms = 100; ms >= 1; ms--) {
      r.record(ms * 1_000_000L);
    }
    Latency l = r.summary();
    assertThat(l.samples()).isEqualTo(100);
    assertThat(l.p50Millis()).isCloseTo(50.0, withinPercentage(PRECISION));
    assertThat(l.p99Millis()).isCloseTo(99.0, withinPercentage(PRECISION));
    assertThat(l.maxMillis()).isCloseTo(100.0, withinPercentage(PRECISION));
  }

  @Test
  void oneSampleIsEveryPercentile() {
    LatencyRecorder r = new LatencyRecorder();
    r.record(2_500_000);
    Latency l = r.summary();
    assertThat(l.samples()).isEqualTo(1);
    assertThat(l.p50Millis()).isCloseTo(2.5, withinPercentage(PRECISION))
        .isEqualTo(l.p99Millis()).isEqualTo(l.maxMillis());
  }

  @Test
  void aSingleSlowAckShowsInP99OnlyWhenItIsMoreThanOnePercent() {
    LatencyRecorder few = new LatencyRecorder();
    LatencyRecorder many = new LatencyRecorder();
    for (int i = 0; i < 99; i++) {
      few.record(1_000_000);
    }
    for (int i = 0; i < 200; i++) {
      many.record(1_000_000);
    }
    few.record(500_000_000);
    many.record(500_000_000);
    assertThat(few.summary().p99Millis()).isCloseTo(1.0, withinPercentage(PRECISION));
    assertThat(many.summary().p99Millis()).isCloseTo(1.0, withinPercentage(PRECISION));
    assertThat(many.summary().maxMillis()).isCloseTo(500.0, withinPercentage(PRECISION));
    many.record(500_000_000);
    many.record(500_000_000);
    assertThat(many.summary().p99Millis()).isCloseTo(500.0, withinPercentage(PRECISION));
  }

  @Test
  void mergingKeepsEverySample() {
    LatencyRecorder a = new LatencyRecorder();
    LatencyRecorder b = new LatencyRecorder();
    for (int i = 1; i <= 3000; i++) {
      (i % 2 == 0 ? a : b).record(i * 1_000_000L);
    }
    a.addAll(b);
    Latency l = a.summary();
    assertThat(a.count()).isEqualTo(3000);
    assertThat(l.p50Millis()).isCloseTo(1500.0, withinPercentage(PRECISION));
    assertThat(l.p99Millis()).isCloseTo(2970.0, withinPercentage(PRECISION));
    assertThat(l.maxMillis()).isCloseTo(3000.0, withinPercentage(PRECISION));
  }

  @Test
  void aWideRangeKeepsItsPrecisionAtBothEnds() {
    LatencyRecorder r = new LatencyRecorder();
    r.record(-5);
    r.record(1_234);
    for (int i = 0; i < 98; i++) {
      r.record(1_234);
    }
    r.record(3_600_000_000_000L);
    Latency l = r.summary();
    assertThat(l.p50Millis()).isCloseTo(0.001234, within(0.000002));
    assertThat(l.maxMillis()).isCloseTo(3_600_000.0, withinPercentage(PRECISION));
  }

  @Test
  void nothingRecordedSummarisesAsZeros() {
    assertThat(new LatencyRecorder().summary()).isEqualTo(new Latency(0, 0, 0, 0));
  }
}

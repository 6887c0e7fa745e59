package dev.fsm.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LatencyRecorderTest {

  @Test
  void percentilesAreNearestRank() {
    LatencyRecorder r = new LatencyRecorder();
    for (int ms = 100; ms >= 1; ms--) {
      r.record(ms * 1_000_000L);
    }
    Latency l = r.summary();
    assertThat(l.samples()).isEqualTo(100);
    assertThat(l.p50Millis()).isEqualTo(50.0);
    assertThat(l.p99Millis()).isEqualTo(99.0);
    assertThat(l.maxMillis()).isEqualTo(100.0);
  }

  @Test
  void oneSampleIsEveryPercentile() {
    LatencyRecorder r = new LatencyRecorder();
    r.record(2_500_000);
    assertThat(r.summary()).isEqualTo(new Latency(1, 2.5, 2.5, 2.5));
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
    assertThat(few.summary().p99Millis()).isEqualTo(1.0);
    assertThat(many.summary().p99Millis()).isEqualTo(1.0);
    assertThat(many.summary().maxMillis()).isEqualTo(500.0);
    many.record(500_000_000);
    many.record(500_000_000);
    assertThat(many.summary().p99Millis()).isEqualTo(500.0);
  }

  @Test
  void mergingKeepsEverySampleBeyondTheInitialCapacity() {
    LatencyRecorder a = new LatencyRecorder();
    LatencyRecorder b = new LatencyRecorder();
    for (int i = 1; i <= 3000; i++) {
      (i % 2 == 0 ? a : b).record(i * 1_000_000L);
    }
    a.addAll(b);
    assertThat(a.count()).isEqualTo(3000);
    assertThat(a.summary()).isEqualTo(new Latency(3000, 1500.0, 2970.0, 3000.0));
  }

  @Test
  void nothingRecordedSummarisesAsZeros() {
    assertThat(new LatencyRecorder().summary()).isEqualTo(new Latency(0, 0, 0, 0));
  }
}

package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ClaimAheadTest {

  private static void measure(ClaimAhead ahead, long millis, int times) {
    for (int i = 0; i < times; i++) {
      ahead.ended(millis * 1_000_000L);
    }
  }

  @Test
  void withoutClaimingAheadAClaimIsForIdleWorkers() {
    ClaimAhead none = new ClaimAhead(4, 0);
    measure(none, 1, 20);
    assertThat(none.claimSize(0, 0)).isEqualTo(4);
    assertThat(none.claimSize(3, 0)).isEqualTo(1);
    assertThat(none.claimSize(4, 0)).isZero();
  }

  @Test
  void shortActionsAreClaimedAheadInBatches() {
    ClaimAhead ahead = new ClaimAhead(4, 16);
    assertThat(ahead.claimSize(0, 0)).as("nothing measured yet").isEqualTo(4);
    measure(ahead, 1, 8);
    assertThat(ahead.claimSize(0, 0)).isEqualTo(20);
    assertThat(ahead.claimSize(4, 16)).isZero();
    assertThat(ahead.claimSize(4, 9)).as("fewer than half the buffer free").isZero();
    assertThat(ahead.claimSize(4, 8)).isEqualTo(8);
    assertThat(ahead.claimSize(2, 0)).as("a worker would idle").isEqualTo(18);
  }

  @Test
  void longActionsAreClaimedOnlyForIdleWorkers() {
    ClaimAhead ahead = new ClaimAhead(4, 16);
    measure(ahead, 1, 8);
    measure(ahead, 500, 8);
    assertThat(ahead.claimSize(3, 0)).isEqualTo(1);
    assertThat(ahead.claimSize(4, 0)).isZero();
  }
}

package dev.fsm.action;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class ProgramLedgerTest {

  private static final Instant RECORDED = Instant.parse("2026-11-25T06:00:00.120Z");

  @Test
  void aProgramIsTheSameWhenItsStartDiffersByTheBootTimeRounding() {
    assertThat(ProgramLedger.sameStart(RECORDED.toString(), RECORDED)).isTrue();
    assertThat(ProgramLedger.sameStart(RECORDED.toString(), RECORDED.plusSeconds(1))).isTrue();
    assertThat(ProgramLedger.sameStart(RECORDED.toString(), RECORDED.minusSeconds(1))).isTrue();
  }

  @Test
  void aProcessThatStartedLaterIsAReusedPid() {
    assertThat(ProgramLedger.sameStart(RECORDED.toString(), RECORDED.plusSeconds(5))).isFalse();
  }

  @Test
  void aRecordWithoutAStartTimeMatchesNothing() {
    assertThat(ProgramLedger.sameStart("", RECORDED)).isFalse();
    assertThat(ProgramLedger.sameStart("garbage", RECORDED)).isFalse();
  }
}

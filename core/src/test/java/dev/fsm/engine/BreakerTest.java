package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.model.BreakerPolicy;
import dev.fsm.store.BreakerNews;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BreakerTest {

  private static final Instant T0 = Instant.parse("2026-11-25T00:00:00Z");
  /** 50% of at least 4 attempts within 60 s; 10 s cooldown. */
  private static final BreakerPolicy POLICY =
      new BreakerPolicy(0.5, 4, Duration.ofSeconds(60), Duration.ofSeconds(10));

  private final Breaker breaker = new Breaker(POLICY);
  private int next;

  private Optional<Breaker.Change> end(boolean error, Instant at) {
    String id = "t" + next++;
    breaker.started(id, at);
    return breaker.ended(id, error, at);
  }

  private Instant s(long seconds) {
    return T0.plusSeconds(seconds);
  }

  /** Opens it at {@code at} with four errors. */
  private void open(Instant at) {
    for (int i = 0; i < 3; i++) {
      assertThat(end(true, at)).isEmpty();
    }
    assertThat(end(true, at)).isPresent();
  }

  @Test
  void closedLetsEverythingStartAndCountsTheWindow() {
    end(true, s(0));
    end(false, s(1));
    assertThat(breaker.room(s(1))).isEqualTo(Integer.MAX_VALUE);
    Breaker.Status st = breaker.status(s(1));
    assertThat(st.phase()).isEqualTo(Breaker.Phase.CLOSED);
    assertThat(st.attempts()).isEqualTo(2);
    assertThat(st.errorRate()).isEqualTo(0.5);
    assertThat(st.until()).isNull();
    assertThat(breaker.nextChange(s(1))).isEmpty();
  }

  @Test
  void doesNotOpenBelowMinAttemptsEvenAtAllErrors() {
    for (int i = 0; i < 3; i++) {
      assertThat(end(true, s(i))).isEmpty();
    }
    assertThat(breaker.status(s(3)).phase()).isEqualTo(Breaker.Phase.CLOSED);
  }

  @Test
  void opensWhenTheShareReachesTheThresholdExactly() {
    end(false, s(0));
    end(true, s(1));
    end(false, s(2));
    Optional<Breaker.Change> opened = end(true, s(3));
    assertThat(opened).isPresent();
    assertThat(opened.get().opened()).isTrue();
    assertThat(opened.get().probeFailed()).isFalse();
    Breaker.Status st = opened.get().status();
    assertThat(st.phase()).isEqualTo(Breaker.Phase.OPEN);
    assertThat(st.errorRate()).isEqualTo(0.5);
    assertThat(st.attempts()).isEqualTo(4);
    assertThat(st.until()).isEqualTo(s(13));
  }

  @Test
  void staysClosedBelowTheThreshold() {
    end(false, s(0));
    end(false, s(1));
    end(true, s(2));
    assertThat(end(false, s(3))).isEmpty();
    assertThat(end(false, s(4))).isEmpty();
    assertThat(breaker.status(s(4)).errorRate()).isEqualTo(0.2);
  }

  @Test
  void attemptsOlderThanTheWindowDoNotCount() {
    end(true, s(0));
    end(true, s(0));
    end(true, s(0));
    // 61 s later the first three are out of the window: one error of one attempt.
    assertThat(end(true, s(61))).isEmpty();
    assertThat(breaker.status(s(61)).attempts()).isEqualTo(1);
    assertThat(breaker.status(s(200)).attempts()).isZero();
  }

  @Test
  void openLetsNothingStartUntilTheCooldownEnds() {
    open(s(0));
    assertThat(breaker.room(s(0))).isZero();
    assertThat(breaker.room(s(9))).isZero();
    assertThat(breaker.nextChange(s(5))).contains(s(10));
    assertThat(breaker.room(s(10))).isEqualTo(1);
    assertThat(breaker.status(s(10)).phase()).isEqualTo(Breaker.Phase.HALF_OPEN);
    assertThat(breaker.status(s(10)).until()).isNull();
  }

  @Test
  void halfOpenLetsExactlyOneProbeStart() {
    open(s(0));
    breaker.started("probe", s(10));
    assertThat(breaker.room(s(10))).isZero();
    breaker.started("other", s(10));
    assertThat(breaker.room(s(11))).isZero();
  }

  @Test
  void aSucceedingProbeClosesItWithAFreshWindow() {
    open(s(0));
    breaker.started("probe", s(10));
    Optional<Breaker.Change> closed = breaker.ended("probe", false, s(11));
    assertThat(closed).isPresent();
    assertThat(closed.get().opened()).isFalse();
    assertThat(closed.get().status().phase()).isEqualTo(Breaker.Phase.CLOSED);
    assertThat(breaker.room(s(11))).isEqualTo(Integer.MAX_VALUE);
    assertThat(breaker.status(s(11)).attempts()).isZero();
    // The errors that opened it are gone: one more error does not reopen it.
    assertThat(end(true, s(12))).isEmpty();
  }

  @Test
  void aFailingProbeReopensWithTheCooldownDoubledUpToTenTimes() {
    open(s(0));
    Instant at = s(10);
    long[] expected = {20, 40, 80, 100, 100};
    for (long cooldown : expected) {
      breaker.started("probe", at);
      Optional<Breaker.Change> again = breaker.ended("probe", true, at);
      assertThat(again).isPresent();
      assertThat(again.get().opened()).isTrue();
      assertThat(again.get().probeFailed()).isTrue();
      assertThat(again.get().status().until()).isEqualTo(at.plusSeconds(cooldown));
      assertThat(breaker.room(at.plusSeconds(cooldown - 1))).isZero();
      at = at.plusSeconds(cooldown);
      assertThat(breaker.room(at)).isEqualTo(1);
    }
    breaker.started("probe", at);
    breaker.ended("probe", false, at);
    // Closed again, the cooldown is back to the configured one.
    open(at);
    assertThat(breaker.status(at).until()).isEqualTo(at.plusSeconds(10));
  }

  @Test
  void anAbandonedProbeFreesTheSlotForAnother() {
    open(s(0));
    breaker.started("probe", s(10));
    breaker.abandoned("probe");
    assertThat(breaker.room(s(10))).isEqualTo(1);
    breaker.abandoned("not-the-probe");
    assertThat(breaker.room(s(10))).isEqualTo(1);
  }

  @Test
  void attemptsStartedBeforeItOpenedDoNotDecide() {
    breaker.started("early", s(0));
    open(s(1));
    assertThat(breaker.ended("early", false, s(2))).isEmpty();
    assertThat(breaker.status(s(2)).phase()).isEqualTo(Breaker.Phase.OPEN);
    // Not even once half-open: only the probe decides.
    breaker.started("probe", s(11));
    assertThat(breaker.ended("early", false, s(12))).isEmpty();
    assertThat(breaker.status(s(12)).phase()).isEqualTo(Breaker.Phase.HALF_OPEN);
  }

  @Test
  void anOpenBreakerShowsTheRateThatOpenedIt() {
    end(false, s(0));
    end(true, s(0));
    end(true, s(0));
    end(true, s(0));
    Breaker.Status st = breaker.status(s(5));
    assertThat(st.phase()).isEqualTo(Breaker.Phase.OPEN);
    assertThat(st.errorRate()).isEqualTo(0.75);
    assertThat(st.attempts()).isEqualTo(4);
  }

  @Test
  void phaseWords() {
    assertThat(Breaker.Phase.HALF_OPEN.word()).isEqualTo("half-open");
    assertThat(Breaker.Phase.CLOSED.word()).isEqualTo("closed");
  }

  @Test
  void anotherRunnersOpenBreakerIsFollowedUntilItsCooldownEnds() {
    BreakerNews news = new BreakerNews("m", true, s(30), Duration.ofSeconds(20), 0.75, 8);
    Optional<Breaker.Change> change = breaker.follow(news, s(10));
    assertThat(change).isPresent();
    assertThat(change.get().opened()).isTrue();
    assertThat(breaker.room(s(29))).isZero();
    Breaker.Status st = breaker.status(s(29));
    assertThat(st.until()).isEqualTo(s(30));
    assertThat(st.errorRate()).isEqualTo(0.75);
    assertThat(st.attempts()).isEqualTo(8);
    assertThat(breaker.follow(news, s(11))).as("the same news twice changes nothing").isEmpty();
    assertThat(breaker.follow(new BreakerNews("m", true, s(5), Duration.ofSeconds(20), 1, 4),
        s(11))).as("news of a cooldown already over").isEmpty();
    assertThat(breaker.room(s(30))).as("half-open: one probe").isEqualTo(1);
  }

  @Test
  void aFollowedOpeningKeepsItsDoubledCooldownForTheNextFailedProbe() {
    breaker.follow(new BreakerNews("m", true, s(40), Duration.ofSeconds(40), 1, 4), s(0));
    breaker.started("probe", s(40));
    Optional<Breaker.Change> failed = breaker.ended("probe", true, s(41));
    assertThat(failed).isPresent();
    assertThat(breaker.status(s(41)).until()).isEqualTo(s(41 + 80));
  }

  @Test
  void anotherRunnersClosingClosesThisOneAndFreesItsProbe() {
    open(s(0));
    breaker.started("probe", s(10));
    assertThat(breaker.room(s(10))).isZero();
    Optional<Breaker.Change> closed = breaker.follow(BreakerNews.closed("m"), s(11));
    assertThat(closed).isPresent();
    assertThat(closed.get().opened()).isFalse();
    assertThat(breaker.room(s(11))).isEqualTo(Integer.MAX_VALUE);
    assertThat(breaker.ended("probe", true, s(12))).as("no longer the probe: counted").isEmpty();
    assertThat(breaker.follow(BreakerNews.closed("m"), s(13))).isEmpty();
  }

  @Test
  void itsOwnChangesBecomeNewsForTheOthers() {
    for (int i = 0; i < 3; i++) {
      end(true, s(0));
    }
    Breaker.Change opened = end(true, s(0)).orElseThrow();
    BreakerNews news = breaker.news("m", opened);
    assertThat(news).isEqualTo(new BreakerNews("m", true, s(10), Duration.ofSeconds(10), 1.0, 4));
    breaker.started("probe", s(10));
    Breaker.Change closed = breaker.ended("probe", false, s(11)).orElseThrow();
    assertThat(breaker.news("m", closed)).isEqualTo(BreakerNews.closed("m"));
  }
}

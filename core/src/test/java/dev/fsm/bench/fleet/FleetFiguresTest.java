package dev.fsm.bench.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.fsm.store.ServerActivity;
import dev.fsm.task.Transition;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The fleet bench's arithmetic: window, shares and server cost, from history entries. */
class FleetFiguresTest {

  private static final Instant T0 = Instant.parse("2026-11-25T06:00:00Z");

  private static Transition entry(long atMillis, long durationMillis, String by) {
    return new Transition(T0.plusMillis(atMillis), "s1", "ok", "s2", durationMillis, 1, by, "");
  }

  @Test
  void theWindowRunsFromTheEarliestAttemptStartToTheLatestEntry() {
    FleetFigures f = new FleetFigures();
    f.add(entry(1_000, 0, "runner:11@a/w1"));
    // Recorded later but started earlier: its start (2000 - 1500 = 500) opens the window.
    f.add(entry(2_000, 1_500, "runner:22@b/w2"));
    f.add(entry(4_500, 10, "runner:11@a/w3"));
    assertThat(f.window()).isEqualTo(Duration.ofMillis(4_000));
    assertThat(f.seconds()).isEqualTo(4.0);
    assertThat(f.transitions()).isEqualTo(3);
    assertThat(f.perSecond(3)).isEqualTo(0.75);
  }

  @Test
  void runnersAreToldApartByProcessWhateverTheirWorkerOrHost() {
    FleetFigures f = new FleetFigures();
    f.add(entry(1, 0, "runner:11@a/w1"));
    f.add(entry(2, 0, "runner:11@a/w4"));
    f.add(entry(3, 0, "runner:110@a/w1"));
    f.add(entry(4, 0, "runner:22@host-with/slash/w2"));
    assertThat(f.transitionsOf(11)).isEqualTo(2);
    assertThat(f.transitionsOf(110)).isEqualTo(1);
    assertThat(f.transitionsOf(22)).isEqualTo(1);
    assertThat(f.transitionsOf(33)).isZero();
  }

  @Test
  void operatorsEntriesAreNeitherCountedNorTimed() {
    FleetFigures f = new FleetFigures();
    f.add(entry(1_000, 0, "runner:11@a/w1"));
    f.add(entry(9_000, 0, "user:ann"));
    f.add(entry(2_000, 0, "runner:11@a/w1"));
    assertThat(f.transitions()).isEqualTo(2);
    assertThat(f.window()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void nothingRecordedIsAnEmptyWindowAndNoCost() {
    FleetFigures f = new FleetFigures();
    assertThat(f.window()).isZero();
    assertThat(f.perSecond(10)).isZero();
    assertThat(f.cost(new ServerActivity(1, 1, 1), new ServerActivity(5, 5, 5))).isEmpty();
  }

  @Test
  void theServersCostIsTheDifferenceOfTwoReadingsPerTransition() {
    FleetFigures f = new FleetFigures();
    for (int i = 0; i < 400; i++) {
      f.add(entry(i, 0, "runner:11@a/w1"));
    }
    FleetFigures.Cost c = f.cost(new ServerActivity(1_000, 50_000, 10),
        new ServerActivity(1_100, 250_000, 50)).orElseThrow();
    assertThat(c.commits()).isEqualTo(100);
    assertThat(c.commitsPerTransition()).isEqualTo(0.25);
    assertThat(c.walBytes()).isEqualTo(200_000);
    assertThat(c.walBytesPerTransition()).isEqualTo(500.0);
    assertThat(c.walSyncs()).isEqualTo(40);
    assertThat(c.walSyncsPerTransition()).isCloseTo(0.1, within(1e-9));
  }

  @Test
  void logForcesAreUnknownWhenEitherReadingLacksThem() {
    FleetFigures f = new FleetFigures();
    f.add(entry(1, 0, "runner:11@a/w1"));
    FleetFigures.Cost c = f.cost(new ServerActivity(0, 0, -1), new ServerActivity(2, 8, 7))
        .orElseThrow();
    assertThat(c.walSyncs()).isNegative();
    assertThat(c.walSyncsPerTransition()).isNegative();
    assertThat(c.commitsPerTransition()).isEqualTo(2.0);
  }
}

package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.action.Attempt;
import dev.fsm.action.supervisor.Deadlines;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Self-fencing on an injected clock: when attempts stop, and what the supervisor is told. */
class LeaseGuardTest {

  private static final Instant T0 = Instant.parse("2026-11-25T08:00:00Z");
  private static final Duration LEASE = Duration.ofSeconds(3);
  private static final Duration GRACE = Duration.ofMillis(500);

  /** The monotonic clock, in nanoseconds; starts far from zero, as System.nanoTime may. */
  private final AtomicLong nanos = new AtomicLong(-5_000_000_000L);
  private final List<String> told = new ArrayList<>();
  private final List<String> problems = new ArrayList<>();

  private final Deadlines supervisor = new Deadlines() {
    @Override
    public void deadline(Duration fromNow) {
      told.add("deadline " + fromNow.toMillis());
    }

    @Override
    public void idle() {
      told.add("idle");
    }
  };

  /** The store's clock: T0 when the monotonic clock started, moving with it. */
  private final Clock clock = new Clock() {
    private final long start = nanos.get();

    @Override
    public Instant instant() {
      return T0.plusNanos(nanos.get() - start);
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      throw new UnsupportedOperationException();
    }
  };

  private final LeaseGuard guard = new LeaseGuard(LEASE, GRACE, clock, nanos::get, supervisor,
      new RunListener() {
        @Override
        public void problem(String message) {
          problems.add(message);
        }
      });

  private void advance(long millis) {
    nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
  }

  @Test
  void theMarginIsATenthOfTheLeaseAndAtLeast200Ms() {
    assertThat(LeaseGuard.margin(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(3));
    assertThat(LeaseGuard.margin(Duration.ofSeconds(1))).isEqualTo(Duration.ofMillis(200));
    assertThat(LeaseGuard.renewEvery(Duration.ofSeconds(30), Duration.ofSeconds(10)))
        .as("(30 - 10 - 3) / 2 is shorter than a third").isEqualTo(Duration.ofMillis(8500));
    assertThat(LeaseGuard.renewEvery(LEASE, GRACE)).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void withoutRenewalEveryAttemptStopsAGraceAndAMarginBeforeTheLeaseEnds() {
    Attempt a = new Attempt();
    Attempt b = new Attempt();
    LeaseGuard.Basis claimed = guard.basis();
    guard.hold("a", a, T0.plus(LEASE), claimed);
    // Fence at 3000 - 500 - 300 = 2200 ms, the supervisor's deadline too.
    assertThat(told).containsExactly("deadline 2200");
    advance(1000);
    guard.hold("b", b, clock.instant().plus(LEASE), guard.basis());
    assertThat(told).as("a later lease moves no deadline").containsExactly("deadline 2200");

    assertThat(guard.check()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(1200));
    advance(1199);
    assertThat(guard.check()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(1));
    assertThat(guard.fenced("a", a)).isFalse();
    assertThat(a.stopRequested()).isFalse();

    advance(1);
    assertThat(guard.fenced("b", b)).as("seen before the guard's thread acts: a stall").isTrue();
    assertThat(guard.check()).isEqualTo(-1);
    assertThat(a.stopReason()).isEqualTo(Attempt.StopReason.LEASE_LOST);
    assertThat(b.stopReason()).as("every attempt, b's lease too")
        .isEqualTo(Attempt.StopReason.LEASE_LOST);
    assertThat(problems).containsExactly("lease could not be renewed in time (the store was"
        + " unreachable or slow to answer, or this process got too little CPU; a longer --lease"
        + " gives both more room): stopping 2 running action(s) before it ends, in 800 ms; their tasks run again"
        + " once claimed, but at-most-once ones (`timeout: 0`) go to fault");
    assertThat(guard.fencing()).isTrue();

    guard.check();
    assertThat(problems).as("said once").hasSize(1);
    advance(799);
    assertThat(guard.fencing()).as("b's lease ends at 4000 ms").isTrue();
    advance(1001);
    assertThat(guard.fencing()).as("an attempt deaf to its stop holds claims back only until"
        + " its lease ended").isFalse();
    guard.release("a");
    guard.release("b");
    assertThat(guard.fencing()).isFalse();
    assertThat(told).endsWith("idle");
  }

  @Test
  void aRunnerWakingFromAStallClaimsNothingAndDropsAStaleOutcomeBeforeTheGuardActs() {
    Attempt old = new Attempt();
    guard.hold("a", old, T0.plus(LEASE), guard.basis());
    advance(2200);
    // The claim loop woke first: the guard's thread has not stopped anything yet.
    assertThat(guard.fencing()).as("a passed fence holds claims back at once").isTrue();

    Attempt again = new Attempt();
    guard.hold("a", again, clock.instant().plus(LEASE), guard.basis());
    assertThat(guard.fenced("a", old)).as("the old attempt's lease is the new claim's now")
        .isTrue();
    assertThat(guard.fenced("a", again)).isFalse();
  }

  @Test
  void aRenewalAnsweredAfterAFencePassedRevivesNoLease() {
    Attempt a = new Attempt();
    guard.hold("a", a, T0.plus(LEASE), guard.basis());
    advance(1000);
    LeaseGuard.Basis asked = guard.basis();
    // Stalled past the fence at 2200 ms; the supervisor stops the program then. On waking, the
    // renewal asked at 1000 ms, before the stall, is answered before the guard's thread runs.
    advance(1300);
    guard.renewed(List.of("a"), List.of(), asked.at().plus(LEASE), asked);
    assertThat(guard.fenced("a", a)).as("its outcome is dropped").isTrue();
    assertThat(guard.check()).isEqualTo(-1);
    assertThat(a.stopReason()).isEqualTo(Attempt.StopReason.LEASE_LOST);
  }

  @Test
  void aRenewalMovesTheFenceAndTheSupervisorsDeadline() {
    Attempt a = new Attempt();
    guard.hold("a", a, T0.plus(LEASE), guard.basis());
    advance(1000);
    // The renewal was asked at +1 s for a lease to +4 s (store time), and answered later.
    LeaseGuard.Basis asked = guard.basis();
    advance(150);
    guard.renewed(List.of("a"), List.of(), asked.at().plus(LEASE), asked);
    // From the asking: fence at 1000 + 3000 - 800 = 3200 ms, now is 1150: 2050 ms from now.
    assertThat(told).containsExactly("deadline 2200", "deadline 2050");
    advance(2000);
    assertThat(guard.check()).isEqualTo(TimeUnit.MILLISECONDS.toNanos(50));
    assertThat(a.stopRequested()).isFalse();
    advance(50);
    guard.check();
    assertThat(a.stopReason()).isEqualTo(Attempt.StopReason.LEASE_LOST);
  }

  @Test
  void aLeaseTheRenewalReportedLostIsNoLongerGuarded() {
    Attempt lost = new Attempt();
    Attempt kept = new Attempt();
    guard.hold("lost", lost, T0.plus(LEASE), guard.basis());
    guard.hold("kept", kept, T0.plus(LEASE), guard.basis());
    guard.renewed(List.of("lost", "kept"), Set.of("lost"), T0.plus(Duration.ofSeconds(10)),
        guard.basis());
    advance(9000);
    guard.check();
    assertThat(lost.stopRequested()).as("the runner stops it itself, as lost").isFalse();
    assertThat(kept.stopRequested()).isFalse();
    assertThat(problems).isEmpty();
  }

  @Test
  void aLeaseAlreadyTooShortWhenClaimedIsStoppedAtOnce() {
    Attempt a = new Attempt();
    guard.hold("a", a, T0.plusMillis(700), guard.basis());
    // Fence 100 ms ago: the supervisor stops it at once.
    assertThat(told).containsExactly("deadline 0");
    guard.check();
    assertThat(a.stopReason()).isEqualTo(Attempt.StopReason.LEASE_LOST);
  }

  @Test
  void theGuardsThreadFencesOnTimeAndStopsWhenClosed() throws Exception {
    LeaseGuard real = new LeaseGuard(Duration.ofMillis(900), Duration.ofMillis(300),
        Clock.systemUTC(), System::nanoTime, Deadlines.NONE, RunListener.NONE);
    real.start();
    try {
      Attempt a = new Attempt();
      long start = System.nanoTime();
      real.hold("a", a, Instant.now().plusMillis(900), real.basis());
      java.util.concurrent.CompletableFuture<Attempt.StopReason> stopped =
          new java.util.concurrent.CompletableFuture<>();
      a.onStop(stopped::complete);
      assertThat(stopped.get(10, TimeUnit.SECONDS)).isEqualTo(Attempt.StopReason.LEASE_LOST);
      // 900 - 300 - 200 = 400 ms after the claim, not before.
      assertThat(Duration.ofNanos(System.nanoTime() - start))
          .isGreaterThanOrEqualTo(Duration.ofMillis(390));
    } finally {
      real.close();
    }
  }
}

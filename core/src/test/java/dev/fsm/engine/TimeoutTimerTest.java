package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Attempts' timeouts behind one timer: each fires once when due, a forgotten one never. */
class TimeoutTimerTest {

  private final ScheduledThreadPoolExecutor timers = Timers.start(Thread::new);

  @AfterEach
  void stop() {
    timers.shutdownNow();
  }

  @Test
  void laterDeadlinesArmNoTimerAndEachFiresOnceInDeadlineOrder() throws Exception {
    TimeoutTimer deadlines = new TimeoutTimer(timers);
    List<String> fired = new CopyOnWriteArrayList<>();
    List<String> expected = new ArrayList<>();
    deadlines.add(Duration.ofMillis(300), () -> fired.add("first"));
    expected.add("first");
    for (int i = 0; i < 1_000; i++) {
      String name = "later-" + i;
      deadlines.add(Duration.ofMillis(300).plusNanos(i + 1), () -> fired.add(name));
      expected.add(name);
    }
    assertThat(timers.getQueue()).hasSize(1);
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (fired.size() < expected.size() && System.nanoTime() < until) {
      Thread.sleep(1);
    }
    assertThat(fired).isEqualTo(expected);
    assertThat(deadlines.pending()).isZero();
    assertThat(timers.getQueue()).isEmpty();
  }

  @Test
  void aForgottenDeadlineNeverFiresAndTheNextOneStillDoes() throws Exception {
    TimeoutTimer deadlines = new TimeoutTimer(timers);
    List<Integer> fired = new CopyOnWriteArrayList<>();
    List<TimeoutTimer.Deadline> forgotten = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      int n = i;
      forgotten.add(deadlines.add(Duration.ofHours(1).plusMillis(i % 50), () -> fired.add(n)));
    }
    forgotten.forEach(deadlines::forget);
    CountDownLatch kept = new CountDownLatch(1);
    deadlines.add(Duration.ofMillis(5), kept::countDown);
    assertThat(kept.await(10, TimeUnit.SECONDS)).isTrue();
    awaitPending(deadlines, 0);
    assertThat(fired).isEmpty();
    assertThat(timers.getQueue()).isEmpty();
  }

  @Test
  void anEarlierDeadlineRearmsTheTimerAndALimitPastTheClocksRangeNeverFires() throws Exception {
    TimeoutTimer deadlines = new TimeoutTimer(timers);
    List<String> fired = new CopyOnWriteArrayList<>();
    deadlines.add(Duration.ofSeconds(Long.MAX_VALUE), () -> fired.add("never"));
    deadlines.add(Duration.ofHours(1), () -> fired.add("in an hour"));
    CountDownLatch soon = new CountDownLatch(1);
    deadlines.add(Duration.ofMillis(5), soon::countDown);
    assertThat(soon.await(10, TimeUnit.SECONDS)).isTrue();
    awaitPending(deadlines, 2);
    assertThat(fired).isEmpty();
    assertThat(timers.getQueue()).hasSize(1);
  }

  @Test
  void aShutDownTimerRefusesNothingToTheCaller() {
    TimeoutTimer deadlines = new TimeoutTimer(timers);
    timers.shutdownNow();
    deadlines.add(Duration.ofMillis(1), () -> { });
    assertThat(deadlines.pending()).isEqualTo(1);
  }

  private static void awaitPending(TimeoutTimer deadlines, int expected) throws InterruptedException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (deadlines.pending() != expected && System.nanoTime() < until) {
      Thread.sleep(1);
    }
    assertThat(deadlines.pending()).isEqualTo(expected);
  }
}

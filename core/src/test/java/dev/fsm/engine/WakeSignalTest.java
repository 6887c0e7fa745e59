package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class WakeSignalTest {

  @Test
  void aWakeGivenBeforeTheSleepIsKept() {
    WakeSignal signal = new WakeSignal();
    signal.wake();
    long start = System.nanoTime();
    assertThat(signal.sleep(Duration.ofMinutes(10))).isTrue();
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMinutes(5));
  }

  @Test
  void aWakeIsUsedOnce() {
    WakeSignal signal = new WakeSignal();
    signal.wake();
    signal.sleep(Duration.ofMinutes(10));
    long start = System.nanoTime();
    signal.sleep(Duration.ofMillis(50));
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(
        Duration.ofMillis(40));
  }

  @Test
  void aWakeEndsASleepUnderWay() throws Exception {
    WakeSignal signal = new WakeSignal();
    CountDownLatch slept = new CountDownLatch(1);
    Thread sleeper = new Thread(() -> {
      signal.sleep(Duration.ofMinutes(10));
      slept.countDown();
    });
    sleeper.start();
    while (sleeper.getState() != Thread.State.TIMED_WAITING) {
      Thread.onSpinWait();
    }
    signal.wake();
    slept.await();
    sleeper.join();
  }

  @Test
  void anInterruptEndsTheSleepAsAStop() throws Exception {
    WakeSignal signal = new WakeSignal();
    AtomicBoolean result = new AtomicBoolean(true);
    AtomicBoolean stillInterrupted = new AtomicBoolean();
    Thread sleeper = new Thread(() -> {
      Thread.currentThread().interrupt();
      result.set(signal.sleep(Duration.ofMinutes(10)));
      stillInterrupted.set(Thread.currentThread().isInterrupted());
    });
    sleeper.start();
    sleeper.join();
    assertThat(result).isFalse();
    assertThat(stillInterrupted).isTrue();
  }
}

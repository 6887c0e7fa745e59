package dev.fsm.store.embedded.recovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/** Work that finishes in time gives its result; work that does not is interrupted and left. */
@Isolated("asserts on time")
class TimeBoundTest {

  @Test
  void aResultInTimeIsReturnedAndAFailureCarriesItsCause() throws Exception {
    assertThat(TimeBound.call("quick", Duration.ofSeconds(5), () -> "done", late -> { }))
        .isEqualTo("done");
    assertThatThrownBy(() -> TimeBound.call("failing", Duration.ofSeconds(5), () -> {
      throw new IllegalStateException("broken file");
    }, late -> { })).isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(IllegalStateException.class).hasRootCauseMessage("broken file");
  }

  @Test
  void workThatTakesTooLongIsInterruptedAndItsLateResultHandedOver() throws Exception {
    CountDownLatch interrupted = new CountDownLatch(1);
    AtomicReference<String> late = new AtomicReference<>();
    CountDownLatch handedOver = new CountDownLatch(1);
    long started = System.nanoTime();
    assertThatThrownBy(() -> TimeBound.call("stuck", Duration.ofMillis(50), () -> {
      try {
        Thread.sleep(60_000);
      } catch (InterruptedException e) {
        interrupted.countDown();
      }
      return "late";
    }, value -> {
      late.set(value);
      handedOver.countDown();
    })).isInstanceOf(TimeBound.Exceeded.class).hasMessage("stuck did not finish within 50 ms");
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(5_000);
    assertThat(interrupted.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(handedOver.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(late.get()).isEqualTo("late");
  }
}

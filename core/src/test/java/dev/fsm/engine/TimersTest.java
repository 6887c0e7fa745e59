package dev.fsm.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The runner's timers forget a cancelled timeout at once, so the heap does not hold them. */
class TimersTest {

  @Test
  void aCancelledTimerLeavesTheQueueWhileOthersStillFire() throws Exception {
    ScheduledThreadPoolExecutor timers = Timers.start(Thread::new);
    try {
      List<ScheduledFuture<?>> timeouts = new ArrayList<>();
      for (int i = 0; i < 10_000; i++) {
        timeouts.add(timers.schedule(() -> { }, 1, TimeUnit.HOURS));
      }
      timeouts.forEach(t -> t.cancel(false));
      assertThat(timers.getQueue()).isEmpty();

      CountDownLatch fired = new CountDownLatch(1);
      timers.schedule(fired::countDown, 1, TimeUnit.MILLISECONDS);
      assertThat(fired.await(10, TimeUnit.SECONDS)).isTrue();
    } finally {
      timers.shutdownNow();
    }
  }
}

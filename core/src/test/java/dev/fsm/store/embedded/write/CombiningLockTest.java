package dev.fsm.store.embedded.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.store.embedded.write.StoreGate.Pending;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Flat combining: every queued body runs once, alone, and its writer hears its own outcome. */
@Timeout(60)
class CombiningLockTest {

  private static final Function<Throwable, RuntimeException> LOST =
      cause -> new IllegalStateException("lost: " + cause.getMessage(), cause);

  private final CombiningLock lock = new CombiningLock();
  /** Stands in for the journal's writer: completes durable futures on its own thread. */
  private final ExecutorService journal = Executors.newSingleThreadExecutor();
  private final ExecutorService writers = Executors.newFixedThreadPool(16);

  @AfterEach
  void stop() {
    journal.shutdownNow();
    writers.shutdownNow();
  }

  @Test
  void everyBodyRunsOnceAloneAndEachWriterGetsItsOwnResultOnceDurable() throws Exception {
    int perWriter = 2_000;
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    long[] counter = {0};
    List<Future<List<Long>>> results = new ArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    for (int w = 0; w < 16; w++) {
      results.add(writers.submit(() -> {
        start.await();
        List<Long> mine = new ArrayList<>();
        for (int i = 0; i < perWriter; i++) {
          if (i % 50 == 0) {
            // A reader now and then, holding the lock itself, as a claim does.
            lock.run(() -> counter[0]);
          }
          mine.add(lock.runAndAwait(() -> {
            if (inside.incrementAndGet() != 1) {
              overlaps.incrementAndGet();
            }
            long value = ++counter[0];
            inside.decrementAndGet();
            return new Pending<>(value, durableLater(value));
          }, LOST));
        }
        return mine;
      }));
    }
    start.countDown();
    List<Long> all = new ArrayList<>();
    for (Future<List<Long>> r : results) {
      List<Long> mine = r.get();
      assertThat(mine).as("a writer's bodies run in its order").isSorted();
      all.addAll(mine);
    }
    assertThat(overlaps).hasValue(0);
    assertThat(all).hasSize(16 * perWriter).doesNotHaveDuplicates();
    assertThat(lock.run(() -> counter[0])).isEqualTo(16L * perWriter);
  }

  @Test
  void aRefusedBodysExceptionReachesItsOwnWriterNotTheHolder() throws Exception {
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread[] holderThread = new Thread[1];
    Future<String> holder = writers.submit(() -> lock.run(() -> {
      holderThread[0] = Thread.currentThread();
      holding.countDown();
      await(release);
      return "held";
    }));
    holding.await();
    LinkedBlockingQueue<Object> outcomes = new LinkedBlockingQueue<>();
    List<Thread> ranOn = new CopyOnWriteArrayList<>();
    writers.submit(() -> {
      try {
        lock.runAndAwait(() -> {
          ranOn.add(Thread.currentThread());
          throw new IllegalArgumentException("refused");
        }, LOST);
      } catch (RuntimeException e) {
        outcomes.add(e);
      }
    });
    writers.submit(() -> outcomes.add(lock.runAndAwait(() -> {
      ranOn.add(Thread.currentThread());
      return new Pending<>("ok", durableLater(1));
    }, LOST)));
    while (lock.queued() < 2) {
      Thread.onSpinWait();
    }
    // Both wait behind the holder, which runs them as it lets go.
    release.countDown();
    assertThat(holder.get()).isEqualTo("held");
    List<Object> got = List.of(outcomes.poll(30, TimeUnit.SECONDS),
        outcomes.poll(30, TimeUnit.SECONDS));
    assertThat(got).anySatisfy(o -> assertThat(o).isEqualTo("ok"))
        .anySatisfy(o -> assertThat(o).isInstanceOf(IllegalArgumentException.class)
            .extracting(e -> ((Throwable) e).getMessage()).isEqualTo("refused"));
    assertThat(ranOn).containsOnly(holderThread[0]).hasSize(2);
  }

  @Test
  void aWriteThatFailsIsToldAsLostAndAnUnchangedResultNeedsNoWrite() {
    assertThatThrownBy(() -> lock.runAndAwait(() -> new Pending<>("x",
        CompletableFuture.<Long>failedFuture(new IOException("disk full"))), LOST))
        .isInstanceOf(IllegalStateException.class).hasMessage("lost: disk full");
    assertThat(lock.runAndAwait(() -> Pending.unchanged("same"), LOST)).isEqualTo("same");
  }

  @Test
  void aBodyThatAppendsInsideAnotherRunsInPlace() {
    List<String> order = new ArrayList<>();
    String result = lock.run(() -> {
      order.add("outer starts");
      String inner = lock.runAndAwait(() -> {
        order.add("inner");
        return Pending.unchanged("inner done");
      }, LOST);
      order.add("outer ends");
      return inner;
    });
    assertThat(result).isEqualTo("inner done");
    assertThat(order).containsExactly("outer starts", "inner", "outer ends");
  }

  private CompletableFuture<Long> durableLater(long sequence) {
    CompletableFuture<Long> f = new CompletableFuture<>();
    journal.execute(() -> f.complete(sequence));
    return f;
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}

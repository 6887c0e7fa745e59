package dev.fsm.store.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.engine.ErrorGroups;
import dev.fsm.engine.ErrorReport;
import dev.fsm.store.ErrorQuery;
import dev.fsm.task.Task;
import dev.fsm.task.TaskHistory;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fsm errors} on an embedded store of many tasks with long and short histories: every
 * error since the time is found, a store reopened cold reads them in reasonable time, and a
 * reader beside the scan waits for one page at most. {@code -Dfsm.errors.tasks=100000} measures
 * with that many tasks and prints the figures.
 */
class EmbeddedErrorsTest {

  private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");
  private static final String RUNNER = "runner:1@h/w1";

  @TempDir Path dir;

  /**
   * Task {@code i}: one success a week ago; every tenth has 40 entries (three chunks); every
   * third has an error 30 hours ago, and every fifth one an hour ago, in state pay or ship.
   */
  private static TaskHistory task(int i) {
    String id = String.format("t%06d", i);
    Instant created = NOW.minus(Duration.ofDays(7));
    List<Transition> h = new ArrayList<>();
    h.add(new Transition(created.plusSeconds(1), "new", "ok", "pay", 5, 1, RUNNER, ""));
    for (int c = 0; i % 10 == 0 && c < 38; c++) {
      h.add(new Transition(created.plusSeconds(2 + c), "pay", "checkpoint", "pay", 0, 1,
          "user:ann", ""));
    }
    String state = i % 2 == 0 ? "pay" : "ship";
    if (i % 3 == 0) {
      h.add(new Transition(NOW.minus(Duration.ofHours(30)), state, "error", state, 9, 1, RUNNER,
          "old failure " + i));
    }
    if (i % 5 == 0) {
      h.add(new Transition(NOW.minus(Duration.ofHours(1)).plusMillis(i), state, "timeout",
          "late", 9, 2, RUNNER, "timed out after " + (i % 60) + "s"));
    }
    Task t = new Task(id, i % 4 == 0 ? "refund" : "order", "v1", state, TaskStatus.SLEEPING,
        "{}", 1, List.of(), created, created, created, NOW.plusSeconds(3600), null);
    return new TaskHistory(t, h);
  }

  @Test
  void everyRecentErrorIsFoundColdInReasonableTimeAPageAtATime() {
    int n = Integer.getInteger("fsm.errors.tasks", 3_000);
    Path folder = dir.resolve("store");
    long fill = System.nanoTime();
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      List<TaskHistory> batch = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        batch.add(task(i));
        if (batch.size() == 1_000 || i == n - 1) {
          store.restore(batch);
          batch.clear();
        }
      }
    }
    long fillMillis = (System.nanoTime() - fill) / 1_000_000;
    long recent = (n + 4) / 5;
    long recentRefund = (n + 19) / 20;
    try (EmbeddedStore store = EmbeddedStore.open(folder)) {
      store.get("t000001");
      AtomicBoolean scanning = new AtomicBoolean(true);
      AtomicLong longestWait = new AtomicLong();
      AtomicLong waits = new AtomicLong();
      AtomicLong over20ms = new AtomicLong();
      Thread reader = new Thread(() -> {
        while (scanning.get()) {
          long t = System.nanoTime();
          store.get("t000001");
          long waited = System.nanoTime() - t;
          longestWait.accumulateAndGet(waited, Math::max);
          waits.incrementAndGet();
          if (waited > 20_000_000) {
            over20ms.incrementAndGet();
          }
          // A read a millisecond, as a busy runner's claims and records come.
          LockSupport.parkNanos(1_000_000);
        }
      });
      reader.start();
      long cold = System.nanoTime();
      ErrorReport all = ErrorGroups.compute(store, query(Duration.ofHours(24), null), 10);
      long coldMillis = (System.nanoTime() - cold) / 1_000_000;
      scanning.set(false);
      join(reader);
      long warm = System.nanoTime();
      ErrorReport week = ErrorGroups.compute(store, query(Duration.ofDays(8), null), 10);
      long warmMillis = (System.nanoTime() - warm) / 1_000_000;
      long machine = System.nanoTime();
      ErrorReport refund = ErrorGroups.compute(store, query(Duration.ofHours(24), "refund"), 10);
      long machineMillis = (System.nanoTime() - machine) / 1_000_000;

      assertThat(all.errors()).isEqualTo(recent);
      assertThat(all.groups()).allMatch(g -> g.pattern().equals("timed out after <n>s"));
      assertThat(all.groupCount()).as("refund/pay, order/pay, order/ship").isEqualTo(3);
      assertThat(week.errors()).isEqualTo(recent + (n + 2) / 3);
      assertThat(refund.errors()).isEqualTo(recentRefund);
      System.out.printf("fsm errors over %,d tasks (filled in %,d ms): since 24h cold %,d ms"
              + " (%,d errors), since 8d %,d ms (%,d errors), --machine refund %,d ms;"
              + " a reader beside the cold scan: %,d reads, %,d over 20 ms, longest %.1f ms%n", n,
          fillMillis, coldMillis, all.errors(), warmMillis, week.errors(), machineMillis,
          waits.get(), over20ms.get(), longestWait.get() / 1e6);
    }
  }

  private static ErrorQuery query(Duration back, String machine) {
    return new ErrorQuery(NOW.minus(back), Optional.ofNullable(machine), Optional.empty());
  }

  private static void join(Thread t) {
    try {
      t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}

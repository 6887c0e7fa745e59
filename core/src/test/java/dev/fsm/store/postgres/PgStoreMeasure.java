package dev.fsm.store.postgres;

import dev.fsm.task.Change;
import dev.fsm.task.Command;
import dev.fsm.task.Commands;
import dev.fsm.task.Task;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Throughput of one PgStore on the test server (embedded: fsync off), for
 * docs/postgres-store.md: claims per second taking 50 at a time, recordAll of 50 changes per
 * second, and one operator update's latency. Not a test (surefire does not pick it): run its
 * main on core's test classpath, {@code java -cp … dev.fsm.store.postgres.PgStoreMeasure
 * [tasks]}; with $FSM_TEST_PG_URL it measures that server instead.
 */
public final class PgStoreMeasure {

  private PgStoreMeasure() {}

  public static void main(String[] args) {
    int total = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
    PgUrl url = PgUrl.parse(TestPostgres.server().freshUrl());
    try (PgStore store = PgStore.open(url, true)) {
      Instant t0 = PgStoreTest.T0;
      List<Task> tasks = new ArrayList<>();
      for (int i = 0; i < total; i++) {
        tasks.add(PgStoreTest.runnable(String.format("m-%07d", i), t0.plusMillis(i % 1000)));
      }
      long c0 = System.nanoTime();
      for (int i = 0; i < total; i += 1000) {
        store.create(tasks.subList(i, Math.min(total, i + 1000)));
      }
      report("create (batches of 1000)", total, System.nanoTime() - c0);

      Instant now = t0.plusSeconds(2);
      List<List<Task>> claimed = new ArrayList<>();
      long k0 = System.nanoTime();
      while (true) {
        List<Task> got = store.claim("bench", 50, now, Duration.ofHours(1));
        if (got.isEmpty()) {
          break;
        }
        claimed.add(got);
      }
      report("claim 50 at a time", total, System.nanoTime() - k0);

      long r0 = System.nanoTime();
      for (List<Task> batch : claimed) {
        List<Change> changes = new ArrayList<>();
        for (Task t : batch) {
          changes.add(PgStoreTest.finished(t, now.plusSeconds(1), "bench/w1"));
        }
        store.recordAll("bench", changes);
      }
      report("recordAll of 50 (durable commit)", total, System.nanoTime() - r0);

      int n = 2000;
      List<Task> operated = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        operated.add(PgStoreTest.runnable(String.format("u-%07d", i), now.plusSeconds(3600)));
      }
      store.create(operated);
      long[] lat = new long[n];
      for (int i = 0; i < n; i++) {
        String id = operated.get(i).id();
        long u0 = System.nanoTime();
        store.update(id, t -> Commands.apply(t, Command.PAUSE,
            new Commands.Request(null, "", "ann"), now.plusSeconds(2)));
        lat[i] = System.nanoTime() - u0;
      }
      Arrays.sort(lat);
      System.out.printf(Locale.ROOT, "update (pause) latency over %d: p50 %.2f ms, p99 %.2f ms%n",
          n, lat[n / 2] / 1e6, lat[(int) (n * 0.99)] / 1e6);
    }
    // The test server's threads would keep this measuring main alive; its shutdown hook stops it.
    System.exit(0);
  }

  private static void report(String what, int n, long nanos) {
    System.out.printf(Locale.ROOT, "%-34s %8d tasks in %6.2f s: %9.0f/s%n", what, n, nanos / 1e9,
        n / (nanos / 1e9));
  }
}

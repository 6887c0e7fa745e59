package bench;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerBuilder;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.task.TaskInstance;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * db-scheduler on the same PostgreSQL as fsm's fleet bench: I instances of T threads in one JVM,
 * lock-and-fetch polling, no-op one-time tasks. Enqueues N executions, then starts the
 * schedulers and measures from the first execution to the table being empty (every execution
 * run and deleted), with the server's commits and log bytes over the same span.
 *
 * <p>Usage: {@code DbSchedulerBench JDBC_URL N [INSTANCES=4] [THREADS=4]}; prints one line of
 * {@code key=value} pairs.
 */
public final class DbSchedulerBench {

  private static final String DDL = """
      DROP TABLE IF EXISTS scheduled_tasks;
      CREATE TABLE scheduled_tasks (
        task_name text NOT NULL, task_instance text NOT NULL, task_data bytea,
        execution_time timestamptz NOT NULL, picked boolean NOT NULL, picked_by text,
        last_success timestamptz, last_failure timestamptz, consecutive_failures int,
        last_heartbeat timestamptz, version bigint NOT NULL, priority smallint,
        PRIMARY KEY (task_name, task_instance));
      CREATE INDEX execution_time_idx ON scheduled_tasks (execution_time);
      CREATE INDEX last_heartbeat_idx ON scheduled_tasks (last_heartbeat);
      CREATE INDEX priority_execution_time_idx ON scheduled_tasks (priority DESC, execution_time ASC);
      """;

  private DbSchedulerBench() {}

  public static void main(String[] args) throws Exception {
    String url = args[0];
    int n = Integer.parseInt(args[1]);
    int instances = args.length > 2 ? Integer.parseInt(args[2]) : 4;
    int threads = args.length > 3 ? Integer.parseInt(args[3]) : 4;
    AtomicLong first = new AtomicLong();
    AtomicLong executed = new AtomicLong();
    OneTimeTask<Void> noop = Tasks.oneTime("noop").execute((instance, context) -> {
      first.compareAndSet(0, System.nanoTime());
      executed.incrementAndGet();
    });
    List<HikariDataSource> pools = new ArrayList<>();
    try {
      HikariDataSource admin = pool(url, 2, "admin");
      pools.add(admin);
      try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
        s.execute(DDL);
      }
      SchedulerClient client = SchedulerClient.Builder.create(admin, noop).build();
      List<TaskInstance<?>> batch = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        batch.add(noop.instance("t" + i));
      }
      client.scheduleBatch(batch, Instant.now());
      long[] before = counters(admin);
      List<Scheduler> schedulers = new ArrayList<>();
      for (int i = 0; i < instances; i++) {
        // One pool per instance, as separate processes would have: its threads, plus polling.
        HikariDataSource ds = pool(url, threads + 2, "s" + i);
        pools.add(ds);
        schedulers.add(Scheduler.create(ds, noop)
            .threads(threads)
            // Fetch again below half the threads, up to 3x the threads at a time: the most
            // db-scheduler allows (UPPER_LIMIT_FRACTION_OF_THREADS_FOR_FETCH), and its fastest.
            .pollUsingLockAndFetch(0.5, SchedulerBuilder.UPPER_LIMIT_FRACTION_OF_THREADS_FOR_FETCH)
            .pollingInterval(Duration.ofSeconds(1))
            .schedulerName(new SchedulerName.Fixed("bench-" + i))
            .build());
      }
      schedulers.forEach(Scheduler::start);
      while (executed.get() < n) {
        Thread.sleep(5);
      }
      while (remaining(admin) > 0) {
        Thread.sleep(5);
      }
      long end = System.nanoTime();
      schedulers.forEach(Scheduler::stop);
      // Closing the pools ends their backends, whose statistics are then counted.
      for (HikariDataSource p : pools.subList(1, pools.size())) {
        p.close();
      }
      Thread.sleep(1500);
      long[] after = counters(admin);
      double seconds = (end - first.get()) / 1e9;
      long commits = after[0] - before[0];
      long wal = after[1] - before[1];
      System.out.println(String.format(Locale.ROOT,
          "executions=%d instances=%d threads=%d seconds=%.3f executions_per_second=%.0f"
              + " commits=%d commits_per_execution=%.3f wal_bytes=%d wal_bytes_per_execution=%.0f",
          n, instances, threads, seconds, n / seconds, commits, (double) commits / n, wal,
          (double) wal / n));
    } finally {
      pools.forEach(HikariDataSource::close);
    }
  }

  private static HikariDataSource pool(String url, int size, String name) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(size);
    config.setMinimumIdle(size);
    config.setPoolName("db-scheduler-" + name);
    return new HikariDataSource(config);
  }

  private static long remaining(HikariDataSource ds) throws SQLException {
    try (Connection c = ds.getConnection(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT count(*) FROM scheduled_tasks")) {
      r.next();
      return r.getLong(1);
    }
  }

  /** Commits in this database and the server's log position. */
  private static long[] counters(HikariDataSource ds) throws SQLException {
    try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
      s.execute("SELECT pg_stat_clear_snapshot()");
      try (ResultSet r = s.executeQuery("SELECT xact_commit,"
          + " (pg_current_wal_lsn() - '0/0'::pg_lsn)::bigint FROM pg_stat_database"
          + " WHERE datname = current_database()")) {
        r.next();
        return new long[] {r.getLong(1), r.getLong(2)};
      }
    }
  }
}

package dev.fsm.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.fsm.store.AnnouncedBreaker;
import dev.fsm.store.BreakerNews;
import dev.fsm.store.LeaseLostException;
import dev.fsm.store.StoreEvents;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Change;
import dev.fsm.task.Command;
import dev.fsm.task.Commands;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What only a store many processes open at once must do: two store instances on one schema
 * stand for two processes (each has its own connections).
 */
class PgStoreTest {

  static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
  private static final Duration LEASE = Duration.ofSeconds(30);

  private PgUrl url;
  private PgStore a;
  private PgStore b;

  @BeforeEach
  void openTwo() {
    url = PgUrl.parse(TestPostgres.server().freshUrl());
    a = PgStore.open(url, true);
    b = PgStore.open(url, false);
  }

  @AfterEach
  void closeBoth() {
    a.close();
    b.close();
  }

  static Task runnable(String id, Instant due) {
    return new Task(id, "order", "abc123abc123", "ship", TaskStatus.RUNNABLE, "{}", 0, List.of(),
        T0, T0, null, due, null);
  }

  /** The change a runner records when the task's action ends it. */
  static Change finished(Task t, Instant at, String by) {
    Task next = new Task(t.id(), t.machine(), t.version(), "done", TaskStatus.COMPLETED,
        t.context(), 0, t.errors(), t.created(), at, t.due(), null, null);
    return new Change(next, new Transition(at, t.state(), "ok", "done", 5, 1, by, ""));
  }

  /**
   * Two processes sending commands to one task, each reading the task's machine inside its
   * update as a one-shot command does: a read on the update's own connection switched it to
   * autocommit, which committed the update's transaction and let go of the task's row, so two
   * signals both found the task waiting and both moved it.
   */
  @Test
  void updatesThatReadTheStoreMeanwhileHoldTheTaskAgainstAnotherInstance() throws Exception {
    a.register("order", "machine: order\n", T0);
    a.create(List.of(runnable("u1", T0)));
    int each = 30;
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < 4; w++) {
        PgStore store = w % 2 == 0 ? a : b;
        String by = "op" + w;
        done.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < each; i++) {
            store.update("u1", t -> {
              assertThat(store.versions("order")).hasSize(1);
              Task next = new Task(t.id(), t.machine(), t.version(), t.state(), t.status(),
                  t.context(), t.attempt() + 1, t.errors(), t.created(), t.stateEntered(),
                  t.lastAttempt(), t.due(), null);
              return new Change(next, new Transition(T0, t.state(), "count", t.state(), 0,
                  t.attempt(), by, ""));
            });
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }

    assertThat(b.get("u1").orElseThrow().attempt()).isEqualTo(4 * each);
    assertThat(b.history("u1")).extracting(Transition::attempt)
        .containsExactlyElementsOf(IntStream.range(0, 4 * each).boxed().toList());
  }

  @Test
  void twoInstancesRacingClaimsAndRecordsHandEachTaskToOneRunner() throws Exception {
    int total = 400;
    List<Task> tasks = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      tasks.add(runnable(String.format("race-%04d", i), T0.plusMillis(i)));
    }
    a.create(tasks);
    Map<String, String> claimedBy = new ConcurrentHashMap<>();
    AtomicInteger twice = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < 6; w++) {
        PgStore store = w % 2 == 0 ? a : b;
        String owner = (w % 2 == 0 ? "a" : "b") + w;
        done.add(pool.submit(() -> {
          start.await();
          while (true) {
            List<Task> got = store.claim(owner, 7, T0.plusSeconds(1), Duration.ofHours(1));
            if (got.isEmpty()) {
              return null;
            }
            List<Change> outcomes = new ArrayList<>();
            for (Task t : got) {
              if (claimedBy.putIfAbsent(t.id(), owner) != null) {
                twice.incrementAndGet();
              }
              outcomes.add(finished(t, T0.plusSeconds(2), owner));
            }
            assertThat(store.recordAll(owner, outcomes)).isEmpty();
          }
        }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(twice).hasValue(0);
    assertThat(claimedBy).hasSize(total);
    assertThat(Set.copyOf(claimedBy.values())).as("both instances took part").hasSizeGreaterThan(1);
    assertThat(b.list(TaskQuery.all(total + 1))).hasSize(total)
        .allMatch(t -> t.status() == TaskStatus.COMPLETED);
    for (String id : List.of("race-0000", "race-0199", "race-0399")) {
      assertThat(a.history(id)).extracting(Transition::by).containsExactly(claimedBy.get(id));
    }
  }

  @Test
  void theLatestBreakerNewsOfAMachineIsKeptForAnotherInstanceToRead() {
    assertThat(b.breakerNews("bank")).isEmpty();
    Instant until = Instant.parse("2030-01-01T00:00:30Z");
    BreakerNews open = new BreakerNews("bank", true, until, Duration.ofSeconds(30), 0.75, 8);
    a.announce(open);
    assertThat(b.breakerNews("bank")).map(AnnouncedBreaker::news).contains(open);
    Instant opened = b.breakerNews("bank").orElseThrow().at();
    a.announce(BreakerNews.closed("bank"));
    AnnouncedBreaker closed = b.breakerNews("bank").orElseThrow();
    assertThat(closed.news()).isEqualTo(BreakerNews.closed("bank"));
    assertThat(closed.at()).as("when it was announced").isAfterOrEqualTo(opened);
    assertThat(b.breakerNews("other")).isEmpty();
  }

  @Test
  void aRunnerWhoseLeaseAnotherInstanceTookCannotRecord() {
    a.create(List.of(runnable("t1", T0)));
    Task mine = a.claim("ra", 1, T0, LEASE).get(0);
    Instant later = T0.plus(LEASE);
    Task theirs = b.claim("rb", 1, later, LEASE).get(0);
    assertThat(theirs.lease().owner()).isEqualTo("rb");

    assertThatThrownBy(() -> a.record("ra", finished(mine, T0.plusSeconds(29), "ra")))
        .as("within ra's own lease time, but rb holds the task now")
        .isInstanceOf(LeaseLostException.class);
    assertThat(a.recordAll("ra", List.of(finished(mine, T0.plusSeconds(29), "ra"))))
        .containsExactly("t1");
    assertThat(a.renew("ra", List.of("t1"), later.plusSeconds(60))).containsExactly("t1");
    b.record("rb", finished(theirs, later.plusSeconds(1), "rb"));
    assertThat(a.history("t1")).extracting(Transition::by).containsExactly("rb");
  }

  @Test
  void aCommandFromAnotherInstanceStopsTheActionThroughRenewWithoutANotification() {
    a.create(List.of(runnable("t1", T0), runnable("t2", T0)));
    assertThat(a.claim("ra", 2, T0, LEASE)).hasSize(2);
    // No listener anywhere: the renewal alone tells the runner.
    b.update("t1", t -> Commands.apply(t, Command.PAUSE,
        new Commands.Request(null, "", "ann"), T0.plusSeconds(1)));
    assertThat(a.renew("ra", List.of("t1", "t2"), T0.plusSeconds(40))).containsExactly("t1");
    assertThat(b.get("t2").orElseThrow().lease().until()).isEqualTo(T0.plusSeconds(40));
  }

  @Test
  void theListenerHearsOtherInstancesChangesButNotItsOwn() throws Exception {
    a.create(List.of(runnable("t1", T0), runnable("t2", T0)));
    BlockingQueue<String> heard = new LinkedBlockingQueue<>();
    a.listen(new StoreEvents() {
      @Override
      public void taskChanged(String id, String event) {
        heard.add(id + " " + event);
      }

      @Override
      public void workArrived() {
        heard.add("work");
      }

      @Override
      public void heardAgain() {
        heard.add("heard again");
      }
    });
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!a.listening() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(a.listening()).isTrue();
    assertThat(heard.poll(10, TimeUnit.SECONDS)).as("told once it listens")
        .isEqualTo("heard again");

    a.update("t2", t -> Commands.apply(t, Command.PAUSE, new Commands.Request(null, "", "me"),
        T0));
    b.update("t1", t -> Commands.apply(t, Command.PAUSE, new Commands.Request(null, "", "ann"),
        T0));
    assertThat(heard.poll(10, TimeUnit.SECONDS)).isEqualTo("t1 pause");
    b.update("t1", t -> Commands.apply(t, Command.RUN, new Commands.Request(null, "", "ann"),
        T0));
    assertThat(heard.poll(10, TimeUnit.SECONDS)).isEqualTo("t1 run");
    assertThat(heard.poll(10, TimeUnit.SECONDS)).as("runnable again").isEqualTo("work");
    b.create(List.of(runnable("t3", T0)));
    assertThat(heard.poll(10, TimeUnit.SECONDS)).isEqualTo("work");
    b.claim("rb", 1, T0, LEASE);
    b.recordAll("rb", List.of());
    assertThat(heard.poll(300, TimeUnit.MILLISECONDS)).as("claims never notify").isNull();
  }

  @Test
  void theListenerConnectsAgainAfterItsConnectionIsCutAndSaysNewsMayHaveBeenMissed()
      throws Exception {
    a.create(List.of(runnable("t1", T0)));
    BlockingQueue<String> heard = new LinkedBlockingQueue<>();
    a.listen(new StoreEvents() {
      @Override
      public void taskChanged(String id, String event) {
        heard.add(id + " " + event);
      }

      @Override
      public void workArrived() {
        heard.add("work");
      }

      @Override
      public void heardAgain() {
        heard.add("heard again");
      }
    });
    awaitListening(a);
    assertThat(heard.poll(10, TimeUnit.SECONDS)).isEqualTo("heard again");
    TestPostgres.server().execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
        + " WHERE query = 'LISTEN \"" + PgTables.of(url.schema(), PgSchema.NEWEST).channel() + "\"'");
    assertThat(heard.poll(20, TimeUnit.SECONDS)).as("told after reconnecting")
        .isEqualTo("heard again");
    awaitListening(a);
    b.update("t1", t -> Commands.apply(t, Command.KILL, new Commands.Request(null, "", "ann"),
        T0));
    assertThat(heard.poll(10, TimeUnit.SECONDS)).isEqualTo("t1 kill");
  }

  @Test
  void breakerNewsReachesTheOtherInstancesOnly() throws Exception {
    BlockingQueue<BreakerNews> heard = new LinkedBlockingQueue<>();
    StoreEvents hearing = new StoreEvents() {
      @Override
      public void taskChanged(String id, String event) {}

      @Override
      public void workArrived() {}

      @Override
      public void breakerChanged(BreakerNews news) {
        heard.add(news);
      }
    };
    a.listen(hearing);
    awaitListening(a);
    BreakerNews opened = new BreakerNews("pay-me", true, T0.plusMillis(1234),
        Duration.ofSeconds(20), 0.625, 16);
    a.announce(BreakerNews.closed("mine"));
    b.announce(opened);
    assertThat(heard.poll(10, TimeUnit.SECONDS)).isEqualTo(opened);
    b.announce(BreakerNews.closed("pay-me"));
    assertThat(heard.poll(10, TimeUnit.SECONDS)).isEqualTo(BreakerNews.closed("pay-me"));
    assertThat(heard.poll(200, TimeUnit.MILLISECONDS)).as("its own news is not told").isNull();
  }

  private static void awaitListening(PgStore store) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!store.listening() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(store.listening()).isTrue();
  }

  @Test
  void theClockIsTheServersInMicroseconds() throws Exception {
    Instant mine = a.clock().instant();
    Instant server;
    try (java.sql.Connection c = TestPostgres.server().connect();
        java.sql.Statement s = c.createStatement();
        java.sql.ResultSet r = s.executeQuery("SELECT clock_timestamp()")) {
      r.next();
      server = r.getObject(1, java.time.OffsetDateTime.class).toInstant();
    }
    assertThat(Duration.between(mine, server).abs()).isLessThan(Duration.ofSeconds(2));
    assertThat(mine.getNano() % 1000).as("no finer than the server keeps").isZero();
  }
}

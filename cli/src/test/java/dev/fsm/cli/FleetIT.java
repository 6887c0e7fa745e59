package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.store.Store;
import dev.fsm.store.TaskCount;
import dev.fsm.store.postgres.TestPostgres;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * Three {@code fsm run} processes on one PostgreSQL schema share a few hundred tasks; one is
 * {@code kill -9}'d in the middle of actions. Its attempts must run again on the others within
 * lease + 1 s, at-most-once attempts must go to {@code fault} instead, and no task may ever run
 * on two runners at once, which the actions' own log shows (see {@link ActionLog}). Then a
 * {@code fsm send ID pause} from a fourth process stops an action running on a runner.
 *
 * <p>Actions sleep 100–300 ms against a 3 s lease: a SIGKILLed runner's programs may live on
 * until they end by themselves (unless a supervisor stops them), so they must end well before
 * the lease does for the overlap check to say anything about leases rather than about orphans.
 */
@Isolated("asserts on time")
class FleetIT {

  private static final TestPostgres PG = TestPostgres.server();
  private static final Duration LEASE = Duration.ofSeconds(3);
  private static final int STEPS = 180;
  private static final int ONCE = 30;

  @TempDir Path dir;
  // Four JVMs and a server on two busy cores: a connection may take longer than fsm's 5 s.
  private final String url = PG.freshUrl() + "&connectTimeout=30";
  private final List<FsmProcess> runners = new ArrayList<>();
  private Store store;
  private ActionLog log;

  @AfterEach
  void stop() {
    Fleet.cleanUp(runners, store, log);
  }

  @Test
  void aKilledRunnersAttemptsRunAgainElsewhereWithinLeasePlusOneSecondAndNeverTwiceAtOnce()
      throws IOException {
    log = Fleet.machines(dir);
    for (int i = 0; i < 3; i++) {
      runners.add(FsmProcess.start(dir, "run", "--store", url, "--workers", "4",
          "--lease", LEASE.toSeconds() + "s", "--grace", "1s"));
    }
    runners.forEach(FsmProcess::awaitServing);
    StoreCommands fsm = new StoreCommands(dir, url);
    List<String> steps = new ArrayList<>();
    for (int i = 0; i < STEPS; i++) {
      steps.add("{\"id\": \"s-" + i + "\"}");
    }
    Files.write(dir.resolve("steps.jsonl"), steps);
    fsm.ok("start", "steps", "--from", "steps.jsonl");
    // The at-most-once tasks come due over 4.5 s, so some run while the kill comes. Started
    // after the steps: a task whose lease ended goes back to its due time, behind every task
    // due before it, so one claimed just before an older batch's commit made it visible would
    // wait for that whole batch after the kill (seen: 7.6 s with a 3 s lease).
    List<String> once = new ArrayList<>();
    for (int i = 0; i < ONCE; i++) {
      once.add("{\"id\": \"o-" + i + "\", \"at\": \"" + i * 150 + "ms\"}");
    }
    Files.write(dir.resolve("once.jsonl"), once);
    fsm.ok("start", "once", "--from", "once.jsonl");
    store = Histories.open(url);

    Map<Long, FsmProcess> byPid = new HashMap<>();
    runners.forEach(r -> byPid.put(r.pid(), r));
    Await.until("actions to run on all three runners", Duration.ofSeconds(30),
        () -> log.runs().values().stream().map(ActionLog.Run::runner).distinct().count() == 3);
    long[] victimPid = {0};
    Await.until("a runner to be running an at-most-once action and another one",
        Duration.ofSeconds(30), () -> {
          for (long pid : byPid.keySet()) {
            List<ActionLog.Run> open = log.open(pid);
            if (open.stream().anyMatch(r -> r.task().startsWith("o-"))
                && open.stream().anyMatch(r -> r.task().startsWith("s-"))) {
              victimPid[0] = pid;
              return true;
            }
          }
          return false;
        });
    FsmProcess victim = byPid.get(victimPid[0]);
    long kill = nanos(Instant.now());
    victim.kill();
    victim.awaitExit(Duration.ofSeconds(10));
    Map<Long, Long> gone = Fleet.awaitProgramsGone(log, victim.pid(), Duration.ofSeconds(10));

    Await.until("every task to end or park in fault", Duration.ofSeconds(60), this::settled);
    Fleet.pauseFromAFourthProcessStopsARunningAction(fsm, log, store);
    for (FsmProcess r : runners) {
      if (r != victim) {
        r.terminate();
        assertThat(r.awaitExit(Duration.ofSeconds(20))).as(r.err()).isZero();
      }
    }

    Map<String, Histories.Entry> tasks = Histories.read(url);
    Map<Long, ActionLog.Run> runs = log.runs();
    long killed = victim.pid();
    int interrupted = 0;
    int faulted = 0;
    // Milliseconds from the kill to each interrupted attempt's next start (or its fault).
    Map<String, Long> delays = new java.util.TreeMap<>();
    for (Histories.Entry e : tasks.values()) {
      String id = e.task().id();
      List<ActionLog.Run> ofTask = runs.values().stream().filter(r -> r.task().equals(id))
          .toList();
      if (id.startsWith("l-")) {
        continue;
      }
      if (id.startsWith("s-")) {
        assertThat(e.task().status()).as(id + ": " + e.history()).isEqualTo(TaskStatus.COMPLETED);
        assertThat(Histories.problem(e.history(), List.of("one", "two", "three", "done")))
            .isEmpty();
        for (ActionLog.Run r : ofTask) {
          if (r.runner() == victim.pid() && !recorded(e.history(), killed, r.state())) {
            interrupted++;
            Transition again = rerun(e.history(), killed, r.state());
            long started = nanos(again.time()) - again.durationMillis() * 1_000_000;
            delays.put(id + " " + r.state(), (started - kill) / 1_000_000);
            long program = ofTask.stream().filter(o -> o.runner() != victim.pid()
                && o.state().equals(r.state()) && o.start() > kill)
                .mapToLong(ActionLog.Run::start).min().orElse(Long.MAX_VALUE);
            delays.put(id + " " + r.state() + " (its program)", (program - kill) / 1_000_000);
          }
        }
      } else {
        assertThat(ofTask).as(id + ": an at-most-once action runs at most once").hasSizeLessThan(2);
        boolean cut = e.history().stream().anyMatch(t -> t.event().equals("start")
            && Fleet.byRunner(t.by(), killed)) && !recorded(e.history(), killed, "charge");
        if (cut) {
          faulted++;
          assertThat(e.task().status()).as(id + ": " + e.history()).isEqualTo(TaskStatus.FAULT);
          assertThat(e.task().errors().get(0).message()).contains(
              "of at-most-once state `charge` (timeout: 0) was interrupted before it ended");
          Transition fault = rerun(e.history(), killed, "charge");
          delays.put(id + " fault", (nanos(fault.time()) - kill) / 1_000_000);
        } else {
          assertThat(e.task().status()).as(id + ": " + e.history())
              .isEqualTo(TaskStatus.COMPLETED);
        }
      }
    }
    System.out.println("FleetIT: ms from the kill to each interrupted attempt's next start"
        + " (lease " + LEASE.toMillis() + " ms): " + delays);
    assertThat(delays).as("taken up again within lease + 1 s of the kill")
        .allSatisfy((what, ms) -> assertThat(ms).as(what)
            .isLessThanOrEqualTo(LEASE.plusSeconds(1).toMillis()));
    assertThat(interrupted).as("attempts the kill interrupted").isPositive();
    assertThat(faulted).as("at-most-once attempts the kill interrupted").isPositive();
    assertThat(ActionLog.overlap(runs, gone::get)).isEmpty();
    assertThat(runs.values()).as("only the killed runner's programs may have no end line")
        .allMatch(r -> !r.open() || r.runner() == victim.pid());
  }

  /** Every task is completed or parked in fault (as at-most-once tasks cut by the kill are). */
  private boolean settled() {
    long done = 0;
    for (TaskCount c : store.counts()) {
      if (c.status() == TaskStatus.COMPLETED || c.status() == TaskStatus.FAULT) {
        done += c.count();
      }
    }
    return done == STEPS + ONCE;
  }

  /** Whether runner {@code pid} recorded the end of an attempt in {@code state}. */
  private static boolean recorded(List<Transition> history, long pid, String state) {
    return history.stream().anyMatch(t -> Fleet.byRunner(t.by(), pid) && t.from().equals(state)
        && !t.event().equals("start"));
  }

  /** What another runner than {@code pid} recorded when it took up {@code state} again. */
  private static Transition rerun(List<Transition> history, long pid, String state) {
    Optional<Transition> t = history.stream().filter(x -> x.by().startsWith("runner:")
        && !Fleet.byRunner(x.by(), pid) && x.from().equals(state) && !x.event().equals("start"))
        .findFirst();
    assertThat(t).as("another runner took up `%s`: %s", state, history).isPresent();
    return t.get();
  }

  static long nanos(Instant t) {
    return t.getEpochSecond() * 1_000_000_000L + t.getNano();
  }
}

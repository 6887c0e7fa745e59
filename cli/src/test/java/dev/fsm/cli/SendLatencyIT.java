package dev.fsm.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.store.Store;
import dev.fsm.store.postgres.TestPostgres;
import dev.fsm.task.Command;
import dev.fsm.task.Commands;
import dev.fsm.task.TaskStatus;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;

/**
 * A measurement, not a test (it asserts only that each command took effect): how long a
 * {@code pause} sent from another process takes to stop an action running on a runner, and a
 * {@code resume} to start it again, over PostgreSQL. Two runners serve one schema; sends
 * alternate pause and resume on one task. Each is timed from just before the send to the
 * program's own log line (its SIGTERM trap for a pause, its start for a resume), twice: through
 * {@code fsm send} (a JVM start each) and through {@code Store.update} in this process (the
 * database path alone: the same transaction and notification the verb makes). Run with
 * {@code -Dfsm.measure=true} ({@code -Dfsm.measure.sends=N}, default 200 of each kind).
 */
@EnabledIfSystemProperty(named = "fsm.measure", matches = "true",
    disabledReason = "a measurement: run it with -Dfsm.measure=true")
@Isolated("measures latency")
class SendLatencyIT {

  private static final TestPostgres PG = TestPostgres.server();

  @TempDir Path dir;
  private final String url = PG.freshUrl();
  private final List<FsmProcess> runners = new ArrayList<>();
  private Store store;
  private ActionLog log;

  @AfterEach
  void stop() {
    Fleet.cleanUp(runners, store, log);
  }

  @Test
  void pauseAndResumeFromAnotherProcess() throws IOException {
    int sends = Integer.getInteger("fsm.measure.sends", 200);
    int cliSends = Integer.getInteger("fsm.measure.cli", sends);
    log = Fleet.machines(dir);
    StoreCommands fsm = new StoreCommands(dir, url);
    fsm.ok("start", "long", "--id", "l-0");
    for (int i = 0; i < Integer.getInteger("fsm.measure.runners", 2); i++) {
      runners.add(FsmProcess.start(dir, "run", "--store", url, "--workers", "4"));
    }
    runners.forEach(FsmProcess::awaitServing);
    store = Histories.open(url);

    Samples cli = new Samples();
    for (int i = 0; i < cliSends / 2; i++) {
      ActionLog.Run running = awaitRunning(Set.of());
      long t0 = now();
      assertThat(fsm.ok("send", "l-0", "pause").out()).contains("paused");
      cli.returned.add(now() - t0);
      cli.stopped.add(awaitTerm(running) - t0);
      Set<Long> before = programs();
      t0 = now();
      fsm.ok("send", "l-0", "resume");
      cli.returned.add(now() - t0);
      cli.started.add(awaitRunning(before).start() - t0);
    }
    if (cliSends > 0) {
      System.out.println("SendLatencyIT: " + cliSends + " sends through `fsm send` (pause and"
          + " resume alternating)\n" + cli.report("fsm send"));
    }
    Samples db = new Samples();
    for (int i = 0; i < sends; i++) {
      ActionLog.Run running = awaitRunning(Set.of());
      long t0 = now();
      assertThat(update(Command.PAUSE).status()).isEqualTo(TaskStatus.PAUSED);
      db.returned.add(now() - t0);
      db.stopped.add(awaitTerm(running) - t0);
      Set<Long> before = programs();
      t0 = now();
      update(Command.RUN);
      db.returned.add(now() - t0);
      db.started.add(awaitRunning(before).start() - t0);
    }
    Set<Long> runnersUsed = log.runs().values().stream().map(ActionLog.Run::runner)
        .collect(Collectors.toSet());
    System.out.println("SendLatencyIT: " + sends + " sends through Store.update, runners used "
        + runnersUsed + "\n" + db.report("Store.update"));
  }

  private dev.fsm.task.Task update(Command command) {
    return store.update("l-0", t -> Commands.apply(t, command,
        new Commands.Request(null, "", "user:measure"), store.clock().instant()));
  }

  /**
   * The program of l-0 that runs now and is none of {@code old}: the newest whose process is
   * alive (a program killed before its trap ran leaves a start line with no end).
   */
  private ActionLog.Run awaitRunning(Set<Long> old) {
    ActionLog.Run[] found = new ActionLog.Run[1];
    Await.until("l-0's program to run", Duration.ofSeconds(30), () -> {
      for (ActionLog.Run r : log.runs().values()) {
        if (r.open() && !old.contains(r.id()) && ActionLog.alive(r)) {
          found[0] = r;
        }
      }
      return found[0] != null;
    });
    return found[0];
  }

  /** When {@code run}'s program logged its SIGTERM, epoch nanoseconds. */
  private long awaitTerm(ActionLog.Run run) {
    Await.until("l-0's program " + run + " to be told to stop; the task is now "
        + store.get("l-0") + "; runners said " + runners.stream().map(FsmProcess::err).toList(),
        Duration.ofSeconds(30), () -> log.runs().get(run.id()).termed());
    // The next resume must find the task paused, not still stopping.
    Await.until("l-0's program to end", Duration.ofSeconds(30), () -> !ActionLog.alive(run));
    return log.runs().get(run.id()).end();
  }

  private Set<Long> programs() {
    return log.runs().keySet();
  }

  private static long now() {
    return FleetIT.nanos(Instant.now());
  }

  /** Latencies in nanoseconds of one way of sending. */
  private static final class Samples {
    final List<Long> returned = new ArrayList<>();
    final List<Long> stopped = new ArrayList<>();
    final List<Long> started = new ArrayList<>();

    String report(String how) {
      return String.format(Locale.ROOT, "%s: returned %s; pause -> SIGTERM %s; resume ->"
          + " program started %s", how, p(returned), p(stopped), p(started));
    }

    private static String p(List<Long> nanos) {
      List<Long> s = nanos.stream().sorted().toList();
      return String.format(Locale.ROOT, "p50 %.1f ms, p99 %.1f ms, max %.1f ms (n=%d)",
          at(s, 0.50), at(s, 0.99), s.get(s.size() - 1) / 1e6, s.size());
    }

    private static double at(List<Long> sorted, double q) {
      int i = (int) Math.ceil(q * sorted.size()) - 1;
      return sorted.get(Math.max(0, i)) / 1e6;
    }
  }
}

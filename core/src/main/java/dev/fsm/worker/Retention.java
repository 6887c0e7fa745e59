package dev.fsm.worker;

import dev.fsm.Timers;
import dev.fsm.FsmException;
import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.RunListener;
import dev.fsm.model.Machine;
import dev.fsm.operations.PurgeReport;
import dev.fsm.operations.Purges;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.PurgeQuery;
import dev.fsm.store.Store;
import dev.fsm.store.StoreUnavailableException;
import dev.fsm.store.TaskCount;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A runner's retention: in the background, at start and then every minute (every retention
 * period when a machine's is shorter, but at most once a second), purges each machine's terminal
 * tasks older than its {@code retention:}, a store batch at a time, and tells the listener when
 * it purged something. The newest registered version's {@code retention:} applies to all of a
 * machine's tasks, whatever version they are pinned to: retention is about keeping the store's
 * size, which is the operator's current intent, not a property of the definition a task started
 * under.
 */
final class Retention implements AutoCloseable {

  static final Duration EVERY = Duration.ofMinutes(1);
  static final Duration AT_MOST_EVERY = Duration.ofSeconds(1);

  private final Store store;
  private final MachineLibrary machines;
  private final Clock clock;
  private final RunListener listener;
  private final ScheduledExecutorService timer;
  private volatile Duration period = EVERY;
  /** Problems already reported, so a broken definition is told once, not every minute. */
  private final Set<String> told = new TreeSet<>();

  Retention(Store store, MachineLibrary machines, Clock clock, RunListener listener) {
    this.store = store;
    this.machines = machines;
    this.clock = clock;
    this.listener = listener;
    this.timer = Timers.daemon("fsm-retention");
  }

  /** Starts purging by retention in the background, the first pass at once. */
  static Retention start(Store store, MachineLibrary machines, Clock clock,
      RunListener listener) {
    Retention r = new Retention(store, machines, clock, listener);
    r.timer.execute(r::passThenSchedule);
    return r;
  }

  private void passThenSchedule() {
    passOrTell();
    if (!timer.isShutdown()) {
      timer.schedule(this::passThenSchedule, period.toMillis(), TimeUnit.MILLISECONDS);
    }
  }

  /** A pass, whose failure is told once (an outage not at all: the runner tells it). */
  void passOrTell() {
    try {
      pass();
    } catch (StoreUnavailableException e) {
      // The runner says so once for the whole outage; the next pass tries again.
    } catch (RuntimeException e) {
      if (!timer.isShutdown()) {
        tell("retention: purging stopped for now (" + e.getMessage() + "); trying again in "
            + period.toSeconds() + " s");
      }
    }
  }

  /** One pass over every machine with a retention; the next pass's period follows from them. */
  void pass() {
    Duration next = EVERY;
    for (Map.Entry<String, Duration> e : retentions().entrySet()) {
      if (timer.isShutdown()) {
        return;
      }
      String machine = e.getKey();
      Duration keep = e.getValue();
      next = keep.compareTo(next) < 0 ? keep : next;
      PurgeQuery query = new PurgeQuery(Optional.of(machine), Set.of(), keep, false,
          Optional.empty(), PurgeQuery.BATCH);
      PurgeReport report = Purges.run(store, query, clock);
      if (report.total() > 0) {
        listener.purged(machine, keep, report.total());
      }
    }
    period = next.compareTo(AT_MOST_EVERY) < 0 ? AT_MOST_EVERY : next;
  }

  /** Each machine's retention, from its newest registered version; machines without, left out. */
  private Map<String, Duration> retentions() {
    // Every machine with tasks, terminal or not yet: the period must follow a short retention
    // before its first task ends.
    Set<String> names = new TreeSet<>();
    for (TaskCount c : store.counts()) {
      names.add(c.machine());
    }
    Map<String, Duration> found = new LinkedHashMap<>();
    for (String name : names) {
      List<MachineVersion> versions = store.versions(name);
      if (versions.isEmpty()) {
        continue;
      }
      MachineVersion newest = versions.get(versions.size() - 1);
      try {
        Machine m = machines.machine(name, newest.version());
        m.retentionPeriod().ifPresent(keep -> found.put(name, keep));
      } catch (FsmException e) {
        tell("retention of machine `" + name + "` not applied: " + e.getMessage());
      }
    }
    return found;
  }

  private void tell(String problem) {
    synchronized (told) {
      if (told.add(problem)) {
        listener.problem(problem);
      }
    }
  }

  /** Stops purging; waits for a batch under way to end, so the store can close after it. */
  @Override
  public void close() {
    timer.shutdownNow();
    try {
      timer.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}

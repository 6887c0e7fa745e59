package dev.fsm.worker;

import dev.fsm.Timers;
import dev.fsm.engine.RunListener;
import dev.fsm.engine.Runner;
import dev.fsm.engine.RunnerOptions;
import dev.fsm.store.RunnerRecord;
import dev.fsm.store.Store;
import dev.fsm.store.StoreUnavailableException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A runner's record in its store ({@code fsm runners}, {@code fsm watch}): written at start,
 * every {@link RunnerRecord#HEARTBEAT} from a thread of its own with the tasks the runner holds
 * and its rate over the last interval, and once more with {@code stopped} at a clean stop. A
 * store outage skips a beat without a word (the runner says so itself); any other failure is
 * told once and the beats go on.
 */
final class RunnerHeartbeat implements AutoCloseable {

  private final Store store;
  private final Runner runner;
  private final Clock clock;
  private final RunListener listener;
  private final ScheduledExecutorService timer;
  private final RunnerRecord first;
  private long lastTransitions;
  private long lastNanos = System.nanoTime();
  private double rate;
  private String told;

  private RunnerHeartbeat(Store store, Runner runner, RunnerRecord first, Clock clock,
      RunListener listener) {
    this.store = store;
    this.runner = runner;
    this.first = first;
    this.clock = clock;
    this.listener = listener;
    this.timer = Timers.daemon("fsm-heartbeat");
  }

  /** Starts beating for {@code runner}, on {@code host}, in this process; the first beat now. */
  static RunnerHeartbeat start(Store store, Runner runner, RunnerOptions options, String host,
      Clock clock, RunListener listener, Duration every) {
    RunnerRecord first = new RunnerRecord(options.owner(), host, ProcessHandle.current().pid(),
        options.workers(), options.machines().stream().toList(), clock.instant(),
        clock.instant(), 0, 0, false);
    RunnerHeartbeat beat = new RunnerHeartbeat(store, runner, first, clock, listener);
    beat.timer.scheduleWithFixedDelay(beat::beat, 0, every.toMillis(), TimeUnit.MILLISECONDS);
    return beat;
  }

  private void beat() {
    long transitions = runner.counters().transitions();
    long nanos = System.nanoTime();
    if (nanos > lastNanos && transitions >= lastTransitions) {
      rate = (transitions - lastTransitions) * 1e9 / (nanos - lastNanos);
    }
    lastTransitions = transitions;
    lastNanos = nanos;
    write(first.seenAt(clock.instant(), runner.running(), rate));
  }

  private void write(RunnerRecord record) {
    try {
      store.runnerSeen(record);
    } catch (StoreUnavailableException e) {
      // The runner reports the outage; the next beat writes the record again.
    } catch (RuntimeException e) {
      String problem = "runner record not written (" + e.getMessage() + "); `fsm runners` may"
          + " show this runner as gone";
      if (!problem.equals(told)) {
        told = problem;
        listener.problem(problem);
      }
    }
  }

  /** Stops beating, then writes the record of a clean stop; the store must still be open. */
  @Override
  public void close() {
    // Not interrupted: interrupting a beat in the middle of its write closed the file's channel
    // under it (ClosedByInterruptException), told as a failure on every short run.
    Timers.stop(timer, Duration.ofSeconds(10));
    write(first.seenAt(first.started(), 0, rate).stoppedAt(clock.instant()));
  }
}

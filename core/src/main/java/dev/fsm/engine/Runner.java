package dev.fsm.engine;

import dev.fsm.FsmException;
import dev.fsm.action.ActionRunner;
import dev.fsm.action.Attempt;
import dev.fsm.action.supervisor.Deadlines;
import dev.fsm.store.BreakerNews;
import dev.fsm.store.ClaimLimits;
import dev.fsm.store.Store;
import dev.fsm.store.StoreUnavailableException;
import dev.fsm.task.AttemptErrors;
import dev.fsm.task.Change;
import dev.fsm.task.Command;
import dev.fsm.task.Task;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code fsm run}: claims due tasks in batches (never more than free workers), runs their actions
 * on the workers, and records outcomes in batches; renews leases while actions run; stops
 * running actions when operators' commands take their tasks away. The store may be shared with
 * other runners: leases keep each task with one of them.
 */
public final class Runner implements OperatorListener {

  /** How long a stop at once waits for actions to end after hurrying them. */
  private static final Duration STOP_NOW_WAIT = Duration.ofSeconds(2);

  private final Store store;
  private final RunnerOptions options;
  private final Clock clock;
  private final RunListener listener;
  private final RunCounters counters = new RunCounters();
  private final Map<String, InFlight> inFlight = new ConcurrentHashMap<>();
  private final AtomicInteger busy = new AtomicInteger();
  private final WakeSignal wakeSignal = new WakeSignal();
  private final AttemptWork work;
  private final RunLimits limits;
  /** The tasks this runner may claim at all ({@code run --machine}), with no cap. */
  private final ClaimLimits served;
  private final StoreOutage outage;
  private final LeaseGuard guard;
  private final ClaimAhead claimAhead;
  /** Claimed ahead of idle workers, each waiting for one. */
  private final WaitingTasks waiting;
  private volatile boolean refreshLimits = true;
  /** Set when other runners' breaker news may have been missed: breakers are seeded again. */
  private volatile boolean reseedBreakers;
  private volatile boolean stopping;
  private volatile boolean stopNow;

  /** A claimed task not yet recorded; its attempt, once its action starts. */
  static final class InFlight {
    final Attempt attempt = new Attempt();
    volatile boolean atMostOnce;
    /** Set when {@code fsm upgrade} waits for this attempt: the task moves once it is recorded. */
    volatile boolean upgradeAfter;
    /** The attempt the outcome to record ends, if it ends one (see {@link AttemptWork}). */
    volatile AttemptEnd ended;
  }

  /** A runner over a store whose programs have no supervisor; {@link #run} does the work. */
  public Runner(Store store, MachineLibrary machines, ActionRunner actions,
      RunnerOptions options, Clock clock, RunListener listener) {
    this(store, machines, actions, options, clock, listener, Deadlines.NONE);
  }

  /**
   * A runner over a store; {@link #run} does the work. {@code supervisor} is given the lease
   * deadlines its programs must end by (see {@link LeaseGuard}).
   */
  public Runner(Store store, MachineLibrary machines, ActionRunner actions,
      RunnerOptions options, Clock clock, RunListener listener, Deadlines supervisor) {
    this.store = store;
    this.options = options;
    this.clock = clock;
    this.listener = counting(listener, counters);
    // Seeded from the store, so adaptive timeouts survive a restart instead of starting over.
    Timeouts timeouts = new Timeouts(RecentSuccesses.seed(store, this.listener));
    this.outage = new StoreOutage(this.listener, wait -> {
      sleep(wait);
      return !stopNow;
    });
    this.work = new AttemptWork(store, machines, actions, timeouts, clock, options.owner(),
        this.listener, outage);
    this.limits = new RunLimits(store, machines, this.listener, clock, options.machines());
    this.served = ClaimLimits.NONE.onlyMachines(options.machines());
    this.claimAhead = new ClaimAhead(options.workers(), options.ahead());
    this.waiting = new WaitingTasks(store, options.owner(), limits, clock, this::settled);
    this.guard = new LeaseGuard(options.lease(), options.shutdownGrace(), clock, System::nanoTime,
        supervisor, this.listener);
  }

  /** The circuit breakers of the machines this runner has seen, by machine name. */
  public Map<String, Breaker> breakers() {
    return limits.breakers();
  }

  /** Counters for a live summary line. */
  public RunCounters counters() {
    return counters;
  }

  /** Whether this runner holds task {@code id} now: claimed and not yet recorded. */
  public boolean holds(String id) {
    return inFlight.containsKey(id);
  }

  /** The actions running now. */
  public int running() {
    return busy.get();
  }

  /** The tasks this runner holds leases on now: claimed (running or ahead) and not recorded. */
  public int held() {
    return inFlight.size();
  }

  /** How many actions it runs at once. */
  public int workers() {
    return options.workers();
  }

  /**
   * Runs until stopped, or until the mode says it is done; returns after every outcome is on
   * disk and every action has ended.
   */
  public void run() {
    ExecutorService workers =
        Executors.newFixedThreadPool(options.workers(), RunnerThreads.daemons("fsm-worker"));
    ScheduledExecutorService timers = Timers.start(RunnerThreads.daemons("fsm-timer"));
    TimeoutTimer deadlines = new TimeoutTimer(timers);
    Completer completer = new Completer(store, options.owner(), listener, outage, () -> stopNow);
    long renewEvery = LeaseGuard.renewEvery(options.lease(), options.shutdownGrace()).toMillis();
    timers.scheduleAtFixedRate(new LeaseRenewal(store, options.owner(), options.lease(), guard,
        outage, listener, inFlight), renewEvery, renewEvery, TimeUnit.MILLISECONDS);
    guard.start();
    try {
      claimLoop(workers, deadlines, completer);
      finishRunning();
    } finally {
      workers.shutdown();
      completer.close();
      timers.shutdownNow();
      guard.close();
      if (!stopNow) {
        RunnerThreads.awaitQuietly(workers);
      }
    }
  }

  /**
   * The listener, after counting what is recorded: an error as {@link AttemptErrors} defines it
   * (retried, routed by an edge, or failing the task), or else a transition.
   */
  private static RunListener counting(RunListener listener, RunCounters counters) {
    RunListener count = new RunListener() {
      @Override
      public void recorded(Change change) {
        boolean error = AttemptErrors.isError(change.entry());
        (error ? counters.errors : counters.transitions).incrementAndGet();
      }
    };
    return RunListener.both(count, listener);
  }

  /** Stops claiming; running actions get the grace period to finish, then are released. */
  public void stop() {
    stopping = true;
    wake();
  }

  /**
   * Stops at once: running actions are ended without a grace (programs get SIGKILL) and nothing
   * more is recorded.
   */
  public void stopNow() {
    stopNow = true;
    stopping = true;
    inFlight.values().forEach(f -> f.attempt.hurry(Attempt.StopReason.SHUTDOWN));
    wake();
  }

  @Override
  public void commandApplied(Task after, Command command) {
    InFlight f = inFlight.get(after.id());
    if (f == null) {
      return;
    }
    // A stopping command that left the lease in place (pause --after-step) waits for the step.
    if (command.stopsRunningAction() && after.lease() == null) {
      f.attempt.stop(Attempt.StopReason.COMMAND);
    } else if (command.deliveredToAction()) {
      f.attempt.deliver(command);
    }
  }

  @Override
  public void breakerHeard(BreakerNews news) {
    if (limits.heard(news) && !news.open()) {
      wake();
    }
  }

  @Override
  public Optional<Breaker> breaker(String machine) {
    return Optional.ofNullable(limits.breakers().get(machine));
  }

  @Override
  public boolean keepsBreakers() {
    return true;
  }

  @Override
  public void upgradePending(Task task) {
    InFlight f = inFlight.get(task.id());
    if (f != null) {
      f.upgradeAfter = true;
    }
  }

  @Override
  public void workArrived() {
    refreshLimits = true;
    wake();
  }

  @Override
  public void newsMissed() {
    reseedBreakers = true;
    workArrived();
  }

  private void claimLoop(ExecutorService workers, TimeoutTimer deadlines,
      Completer completer) {
    Instant passStart = clock.instant();
    Duration outageWait = StoreOutage.FIRST_WAIT;
    while (!stopping) {
      long asked = System.nanoTime();
      try {
        if (claimPass(workers, deadlines, completer, passStart)) {
          return;
        }
        outageWait = StoreOutage.FIRST_WAIT;
      } catch (StoreUnavailableException e) {
        // Claims and waits are asked again once the store answers; running actions go on.
        outage.went("claiming", e, outageWait, asked);
        sleep(outageWait);
        outageWait = StoreOutage.longer(outageWait);
      }
    }
  }

  /**
   * One pass of the claim loop: claims what free workers can take, or sleeps until work may be
   * due; true when the mode says the run is done.
   */
  private boolean claimPass(ExecutorService workers, TimeoutTimer deadlines,
      Completer completer, Instant passStart) {
    startWaiting(workers, deadlines, completer);
    // A runner stopping attempts it could not renew claims nothing until they have ended.
    int free = guard.fencing() ? 0 : claimAhead.claimSize(busy.get(), waiting.size());
    // True when limits held due tasks back: their due time then says nothing new.
    boolean heldBack = false;
    if (free > 0) {
      if (refreshLimits) {
        refreshLimits = false;
        // Before the refresh: breakers it reads for the first time are seeded by it anyway.
        if (reseedBreakers) {
          reseedBreakers = false;
          limits.reseed();
        }
        limits.refresh();
      }
      LeaseGuard.Basis asOf = guard.basis();
      Instant now = options.mode() == RunnerOptions.Mode.ONCE ? passStart : asOf.at();
      ClaimLimits room = limits.limits(clock.instant());
      // A pass's claims take only what was due at its start, but their leases run from now.
      Duration lease = options.lease().plus(Duration.between(now, asOf.at()));
      long asked = System.nanoTime();
      List<Task> claimed = store.claim(options.owner(), free, now, lease, room);
      outage.back(asked);
      // A breaker that opened while the claim was on its way holds back what it returned.
      List<WaitingTasks.Waiting> heldBackNow = new ArrayList<>();
      for (Task task : claimed) {
        limits.started(task, clock.instant());
        InFlight f = hold(task, asOf);
        if (limits.breakerOpen(task, clock.instant())) {
          heldBackNow.add(new WaitingTasks.Waiting(task, f));
        } else if (busy.get() < options.workers()) {
          start(task, f, workers, deadlines, completer);
        } else {
          waiting.add(task, f);
        }
      }
      waiting.letGo(heldBackNow);
      if (!claimed.isEmpty()) {
        return false;
      }
      heldBack = room.anyFull();
    }
    // In this order: a worker's last step is leaving `busy`, after its outcome was recorded
    // and left `inFlight`; so with both empty nothing is on its way, and the store is settled.
    boolean nothingHeld = inFlight.isEmpty() && busy.get() == 0;
    if (options.mode() == RunnerOptions.Mode.ONCE && nothingHeld) {
      return true;
    }
    // With every worker busy a finishing one wakes the loop; the store need not be asked.
    // Other machines' tasks are never this runner's to wait for (`--until-idle --machine`).
    Optional<Instant> next = free > 0 || nothingHeld ? store.nextDue(served) : Optional.empty();
    if (options.mode() == RunnerOptions.Mode.UNTIL_IDLE && nothingHeld && next.isEmpty()) {
      return true;
    }
    if (heldBack && next.isPresent() && !next.get().isAfter(clock.instant())) {
      // What is due now is held back by a cap or a breaker: wait for what the limits let
      // start, or for a breaker's cooldown to end; an attempt ending or new work wakes the
      // loop before either.
      Instant now = clock.instant();
      next = earliest(store.nextDue(limits.limits(now)).filter(t -> t.isAfter(now)),
          limits.nextChange(now));
    }
    Duration wait = options.maxIdleWait();
    if (next.isPresent()) {
      Duration untilDue = Duration.between(clock.instant(), next.get());
      wait = untilDue.compareTo(wait) < 0 ? untilDue : wait;
    }
    sleep(wait);
    return false;
  }

  private static Optional<Instant> earliest(Optional<Instant> a, Optional<Instant> b) {
    return a.isEmpty() ? b : b.isEmpty() || a.get().isBefore(b.get()) ? a : b;
  }

  /** A claimed task is now this runner's: its lease renewed, commands to it heard. */
  private InFlight hold(Task task, LeaseGuard.Basis claimedAsOf) {
    InFlight f = new InFlight();
    inFlight.put(task.id(), f);
    if (task.lease() != null) {
      // Before the action starts, so the supervisor has the deadline before the program exists.
      guard.hold(task.id(), f.attempt, task.lease().until(), claimedAsOf);
    }
    return f;
  }

  /**
   * Starts tasks claimed ahead on the idle workers; one stopped while it waited (a command, a
   * lost lease) is let go unstarted.
   */
  private void startWaiting(ExecutorService workers, TimeoutTimer deadlines,
      Completer completer) {
    while (busy.get() < options.workers()) {
      WaitingTasks.Waiting w = waiting.next();
      if (w == null) {
        return;
      }
      start(w.task(), w.flight(), workers, deadlines, completer);
    }
  }

  private void start(Task task, InFlight f, ExecutorService workers,
      TimeoutTimer deadlines, Completer completer) {
    busy.incrementAndGet();
    workers.execute(() -> {
      Optional<Change> change = Optional.empty();
      try {
        long began = System.nanoTime();
        change = work.attempt(task, f, deadlines, () -> stopNow);
        claimAhead.ended(System.nanoTime() - began);
        if (change.isPresent() && guard.fenced(task.id(), f.attempt)) {
          // Seen after the lease stopped being safe: the supervisor may have ended the action.
          change = Optional.empty();
          f.attempt.stop(Attempt.StopReason.LEASE_LOST);
        }
        if (change.isPresent() && !stopNow) {
          completer.submit(change.get(), f.ended, () -> {
            if (f.upgradeAfter) {
              moveUpgraded(task.id());
            }
            settled(task.id(), f);
          });
        } else {
          if (change.isEmpty() && f.attempt.stopReason() != null) {
            listener.discarded(task.id(), "the action was stopped ("
                + f.attempt.stopReason().name().toLowerCase().replace('_', ' ') + ")");
          }
          settled(task.id(), f);
        }
      } catch (FsmException | IllegalStateException e) {
        listener.problem("task `" + task.id() + "`: " + e.getMessage());
        settled(task.id(), f);
      } catch (RuntimeException e) {
        listener.problem("task `" + task.id() + "`: internal error: " + e);
        settled(task.id(), f);
      } finally {
        limits.ended(task, change, clock.instant());
        // The next task claimed ahead starts on this worker's pool at once, not through the
        // claim loop; before this attempt leaves `busy`, so a stopping runner never sees it
        // empty while a task is being started.
        WaitingTasks.Waiting next = stopping ? null : waiting.next();
        if (next != null) {
          start(next.task(), next.flight(), workers, deadlines, completer);
        }
        busy.decrementAndGet();
        wakeIfUseful();
      }
    });
  }

  /** After the outcome the old version routed is recorded, the upgrade it waited for. */
  private void moveUpgraded(String id) {
    try {
      work.finishUpgrade(id, options.owner());
    } catch (RuntimeException e) {
      listener.problem("task `" + id + "`: could not finish its upgrade (the next claim or"
          + " `fsm upgrade` again does): " + e.getMessage());
    }
  }

  /**
   * The attempt {@code f} of task {@code id} is over. Only that attempt is let go: the task may
   * have been claimed again already (a pause and a quick resume, a lost lease), and the new
   * attempt must stay held, renewed and told commands.
   */
  private void settled(String id, InFlight f) {
    if (inFlight.remove(id, f)) {
      guard.release(id);
    }
    wakeIfUseful();
  }

  /**
   * After the claim loop: lets running actions finish within the grace, then stops them. After
   * {@link #stopNow} it waits only briefly: an action that ignores its stop (a {@code java:}
   * action deaf to interrupts) must not hold the process, and its lease keeps the task safe.
   */
  private void finishRunning() {
    waiting.releaseAll();
    Instant deadline = clock.instant().plus(options.shutdownGrace());
    while (!inFlight.isEmpty() && !stopNow && clock.instant().isBefore(deadline)) {
      sleep(Duration.between(clock.instant(), deadline));
    }
    inFlight.values().forEach(f -> {
      if (stopNow) {
        f.attempt.hurry(Attempt.StopReason.SHUTDOWN);
      } else {
        f.attempt.stop(Attempt.StopReason.SHUTDOWN);
      }
    });
    Instant giveUp = null;
    while (busy.get() > 0) {
      if (stopNow) {
        giveUp = giveUp == null ? clock.instant().plus(STOP_NOW_WAIT) : giveUp;
        if (!clock.instant().isBefore(giveUp)) {
          listener.problem(busy.get() + " action(s) did not end when stopped; leaving them");
          return;
        }
      }
      sleep(Duration.ofMillis(100));
    }
  }

  /**
   * Wakes the claim loop when it has something to do after an attempt ended or settled: a claim
   * to make, the end of the work to notice, or a stop. With tasks claimed ahead, most endings
   * leave it nothing to do, and waking it for them was a context switch per transition.
   */
  private void wakeIfUseful() {
    if (stopping || inFlight.isEmpty() || busy.get() == 0
        || claimAhead.claimSize(busy.get(), waiting.size()) > 0) {
      wake();
    }
  }

  private void wake() {
    wakeSignal.wake();
  }

  private void sleep(Duration wait) {
    if (!wakeSignal.sleep(wait)) {
      stopping = true;
    }
  }
}

package dev.fsm.engine;

import dev.fsm.store.Store;
import dev.fsm.task.Task;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * The tasks a runner claimed ahead of its idle workers (see {@link ClaimAhead}), oldest first.
 * Each stays held (leased, renewed, told commands) until a worker starts it, or is let go
 * unstarted with its lease ended at once, so that it waits in the due queue for whoever may start
 * it: when it was stopped while it waited, when its machine's breaker opened meanwhile (SPEC 4:
 * no attempt starts while open), or when the runner stops.
 */
final class WaitingTasks {

  /** A task claimed ahead and the attempt it will be. */
  record Waiting(Task task, Runner.InFlight flight) {}

  /** What the runner does once an attempt is over: see {@code Runner#settled}. */
  @FunctionalInterface
  interface Settle {
    void settled(String id, Runner.InFlight flight);
  }

  private final Deque<Waiting> waiting = new ConcurrentLinkedDeque<>();
  private final Store store;
  private final String owner;
  private final RunLimits limits;
  private final Clock clock;
  private final Settle settle;

  WaitingTasks(Store store, String owner, RunLimits limits, Clock clock, Settle settle) {
    this.store = store;
    this.owner = owner;
    this.limits = limits;
    this.clock = clock;
    this.settle = settle;
  }

  /** Holds a claimed task until a worker is free for it. */
  void add(Task task, Runner.InFlight flight) {
    waiting.add(new Waiting(task, flight));
  }

  /** How many wait. */
  int size() {
    return waiting.size();
  }

  /**
   * The next task that may start now, or null; those stopped while they waited (a command, a
   * lost lease) or whose breaker opened meanwhile are let go unstarted on the way, the latter
   * with one lease call for all of them.
   */
  Waiting next() {
    List<Waiting> breakerOpen = new ArrayList<>(0);
    Waiting w;
    while ((w = waiting.poll()) != null) {
      if (w.flight().attempt.stopReason() != null) {
        limits.ended(w.task(), Optional.empty(), clock.instant());
        settle.settled(w.task().id(), w.flight());
      } else if (limits.breakerOpen(w.task(), clock.instant())) {
        breakerOpen.add(w);
      } else {
        break;
      }
    }
    letGo(breakerOpen);
    return w;
  }

  /** Lets every waiting task go unstarted: for a stopping runner. */
  void releaseAll() {
    List<Waiting> unstarted = new ArrayList<>();
    for (Waiting w = waiting.poll(); w != null; w = waiting.poll()) {
      unstarted.add(w);
    }
    letGo(unstarted);
  }

  /**
   * Lets claimed tasks go unstarted, their leases ended at once in one call (one round trip on
   * PostgreSQL), so that they wait in the due queue for whoever may start them.
   */
  void letGo(List<Waiting> unstarted) {
    if (unstarted.isEmpty()) {
      return;
    }
    try {
      store.renew(owner, unstarted.stream().map(w -> w.task().id()).toList(), clock.instant());
    } catch (RuntimeException e) {
      // Their leases end by themselves; the tasks wait until then.
    }
    for (Waiting w : unstarted) {
      limits.ended(w.task(), Optional.empty(), clock.instant());
      settle.settled(w.task().id(), w.flight());
    }
  }
}

package dev.fsm.engine;

import dev.fsm.action.Attempt;
import dev.fsm.action.supervisor.Deadlines;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Self-fencing: a runner stops its own running attempts when no renewal of their leases
 * succeeded by (lease end - grace - margin), so a runner cut off from its store, or stalled,
 * never runs an attempt that another runner may claim once the lease ends. It also gives the
 * program supervisor the same deadline, the backstop for a runner too stalled to stop anything. Lease ends are turned into the monotonic clock when they are confirmed, so a
 * wall clock that jumps moves no fence. Thread-safe; a thread of its own fences on time, as the
 * renewing thread may be the one stuck in a store call.
 */
final class LeaseGuard implements AutoCloseable {

  /** A moment on both clocks: the store's time and the monotonic clock, read together. */
  record Basis(Instant at, long nanos) {}

  private static final Duration SMALLEST_MARGIN = Duration.ofMillis(200);

  private static final class Held {
    final Attempt attempt;
    long fence;
    boolean fenced;

    Held(Attempt attempt, long fence) {
      this.attempt = attempt;
      this.fence = fence;
    }
  }

  private final Duration grace;
  private final long margin;
  private final Clock clock;
  private final LongSupplier nanos;
  private final Deadlines supervisor;
  private final RunListener listener;
  private final Map<String, Held> held = new HashMap<>();
  /**
   * The fences of {@link #held}, unfenced and fenced apart, so that no call walks every lease (a
   * runner holds hundreds at once, and walking them on every claim and outcome cost more than
   * the store did). Ordered as longs: System.nanoTime() does not wrap within a runner's life.
   */
  private final FenceSet unfenced = new FenceSet();
  private final FenceSet fencedSet = new FenceSet();
  private final Object lock = new Object();
  /** The earliest unfenced fence the guard's thread last planned to wake for; under the lock. */
  private long wakeFor;
  private boolean wakePlanned;
  private long sentFence;
  private boolean sentAny;
  private long changes;
  private boolean closed;
  private Thread thread;

  /**
   * @param grace how long a stopped action has to end before it is killed
   * @param nanos the monotonic clock, {@link System#nanoTime} but in tests
   */
  LeaseGuard(Duration lease, Duration grace, Clock clock, LongSupplier nanos,
      Deadlines supervisor, RunListener listener) {
    this.grace = grace;
    this.margin = margin(lease).toNanos();
    this.clock = clock;
    this.nanos = nanos;
    this.supervisor = supervisor;
    this.listener = listener;
  }

  /** The time kept between a stopped action's end and its lease's: for clocks and slow kills. */
  static Duration margin(Duration lease) {
    Duration tenth = lease.dividedBy(10);
    return tenth.compareTo(SMALLEST_MARGIN) > 0 ? tenth : SMALLEST_MARGIN;
  }

  /**
   * How often leases are renewed: every third of the lease, or more often when the grace leaves
   * less, so a fence never comes before two renewals could have moved it.
   */
  static Duration renewEvery(Duration lease, Duration grace) {
    Duration third = lease.dividedBy(3);
    Duration room = lease.minus(grace).minus(margin(lease)).dividedBy(2);
    Duration every = room.compareTo(third) < 0 ? room : third;
    return every.compareTo(Duration.ofMillis(10)) < 0 ? Duration.ofMillis(10) : every;
  }

  /** Now, on both clocks: take it before the store call that claims or renews. */
  Basis basis() {
    return new Basis(clock.instant(), nanos.getAsLong());
  }

  /** Starts fencing on time. */
  void start() {
    Thread t = new Thread(this::loop, "fsm-lease-guard");
    t.setDaemon(true);
    synchronized (lock) {
      thread = t;
    }
    t.start();
  }

  /** A claimed task whose lease ends at {@code end}, as the store said from {@code asOf} on. */
  void hold(String id, Attempt attempt, Instant end, Basis asOf) {
    synchronized (lock) {
      drop(held.put(id, new Held(attempt, fence(end, asOf))));
      unfenced.add(held.get(id).fence);
      changed();
    }
  }

  /** A renewal asked from {@code asOf} that moved every lease of {@code asked} but the lost. */
  void renewed(Collection<String> asked, Collection<String> lost, Instant until, Basis asOf) {
    long fence = fence(until, asOf);
    Set<String> gone = new HashSet<>(lost);
    long now = nanos.getAsLong();
    synchronized (lock) {
      // A renewal answered after a fence passed (a runner waking from a stall) moves nothing:
      // the supervisor may have stopped the programs at that fence already, so their outcomes
      // must be dropped, and the guard's thread stops the attempts.
      boolean passed = anyPastFence(now);
      for (String id : asked) {
        Held h = held.get(id);
        if (h == null) {
          continue;
        }
        if (gone.contains(id)) {
          // Stopped as lost by the runner: nothing left to fence.
          drop(held.remove(id));
        } else if (!passed && !h.fenced && fence - h.fence > 0) {
          unfenced.remove(h.fence);
          h.fence = fence;
          unfenced.add(fence);
        }
      }
      changed();
    }
  }

  /** The task's attempt is over and recorded or dropped. */
  void release(String id) {
    synchronized (lock) {
      Held h = held.remove(id);
      if (h != null) {
        drop(h);
        changed();
      }
    }
  }

  /**
   * True when the task's lease can no longer be trusted: the runner's earliest fence passed with
   * no renewal, even if the guard's thread has not yet acted on it (a stalled runner waking up).
   * An outcome seen after that is dropped, since the supervisor may have ended the action. An
   * attempt whose task was claimed again since is fenced too: its lease is the new attempt's.
   */
  boolean fenced(String id, Attempt attempt) {
    long now = nanos.getAsLong();
    synchronized (lock) {
      Held h = held.get(id);
      return h != null && (h.attempt != attempt || h.fenced || anyPastFence(now));
    }
  }

  /** A fence passed that the guard's thread has not acted on yet: the runner was stalled. */
  private boolean anyPastFence(long now) {
    return !unfenced.isEmpty() && now - unfenced.first() >= 0;
  }

  /** Takes a lease no longer held out of the fence sets; null for none. Under the lock. */
  private void drop(Held h) {
    if (h != null) {
      (h.fenced ? fencedSet : unfenced).remove(h.fence);
    }
  }

  /**
   * True while attempts it stopped have not ended, until their leases end, and while a fence
   * has passed that the guard's thread has not acted on yet (a runner waking from a stall): the
   * runner claims nothing meanwhile, so it never claims a task again before its old attempt is
   * stopped, and the supervisor's backstop never meets a program of a newer claim.
   */
  boolean fencing() {
    long now = nanos.getAsLong();
    long ended = grace.toNanos() + margin;
    synchronized (lock) {
      // Bounded by the lease's end: a java: action deaf to its stop must not stop the runner.
      return anyPastFence(now) || !fencedSet.isEmpty() && now - (fencedSet.last() + ended) < 0;
    }
  }

  /**
   * Stops every running attempt once the earliest fence passed: renewals move all leases
   * together, and the supervisor's backstop stops all of the runner's programs at once.
   *
   * @return nanoseconds until the next fence, or -1 when none is due
   */
  long check() {
    List<Attempt> stop = new ArrayList<>();
    long now = nanos.getAsLong();
    long next = -1;
    synchronized (lock) {
      if (anyPastFence(now)) {
        for (Held h : held.values()) {
          if (!h.fenced) {
            h.fenced = true;
            unfenced.remove(h.fence);
            fencedSet.add(h.fence);
            stop.add(h.attempt);
          }
        }
      } else if (!unfenced.isEmpty()) {
        next = unfenced.first() - now;
      }
      wakePlanned = next >= 0;
      wakeFor = unfenced.isEmpty() ? 0 : unfenced.first();
    }
    if (!stop.isEmpty()) {
      // Not always the store: a runner starved of CPU (JVMs starting together on few cores)
      // misses its renewals as surely, and the user should look at both.
      listener.problem(RunListener.Topic.LEASE, "lease could not be renewed in time (the store"
          + " was unreachable or slow to answer, or this process got too little CPU; a longer"
          + " --lease gives both more room): stopping " + stop.size() + " running action(s)"
          + " before it ends, in "
          + TimeUnit.NANOSECONDS.toMillis(grace.toNanos() + margin) + " ms; their tasks run"
          + " again once claimed, but at-most-once ones (`timeout: 0`) go to fault");
      stop.forEach(a -> a.stop(Attempt.StopReason.LEASE_LOST));
    }
    return next;
  }

  @Override
  public void close() {
    Thread t;
    synchronized (lock) {
      closed = true;
      t = thread;
      lock.notifyAll();
    }
    if (t != null) {
      try {
        t.join(1000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private long fence(Instant end, Basis asOf) {
    return asOf.nanos() + Duration.between(asOf.at(), end).toNanos() - grace.toNanos() - margin;
  }

  /**
   * Gives the supervisor the earliest fence as its deadline: the runner and the supervisor both
   * stop the attempts then, and an outcome the runner sees after it is dropped ({@link
   * #fenced}), so a program the supervisor killed is never recorded as an error. Fenced
   * attempts keep their place until they end, so a runner stalled while stopping them is still
   * backed up. No lease held: no deadline. Called holding the lock.
   */
  private void changed() {
    // The guard's thread needs waking only for a fence earlier than the one it waits for.
    if (!unfenced.isEmpty() && (!wakePlanned || unfenced.first() - wakeFor < 0)) {
      changes++;
      wakePlanned = true;
      wakeFor = unfenced.first();
      lock.notifyAll();
    }
    if (held.isEmpty()) {
      if (sentAny) {
        sentAny = false;
        supervisor.idle();
      }
      return;
    }
    long earliest = unfenced.isEmpty() ? fencedSet.first()
        : fencedSet.isEmpty() ? unfenced.first() : Math.min(unfenced.first(), fencedSet.first());
    if (sentAny && earliest == sentFence) {
      return;
    }
    sentAny = true;
    sentFence = earliest;
    supervisor.deadline(Duration.ofNanos(Math.max(0, earliest - nanos.getAsLong())));
  }

  private void loop() {
    while (true) {
      long seen;
      synchronized (lock) {
        seen = changes;
      }
      long next = check();
      synchronized (lock) {
        if (closed) {
          return;
        }
        if (changes != seen) {
          continue;
        }
        try {
          if (next < 0) {
            lock.wait();
          } else {
            lock.wait(TimeUnit.NANOSECONDS.toMillis(next) + 1);
          }
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }
}

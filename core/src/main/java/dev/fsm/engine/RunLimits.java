package dev.fsm.engine;

import dev.fsm.FsmException;
import dev.fsm.model.Machine;
import dev.fsm.model.State;
import dev.fsm.store.BreakerNews;
import dev.fsm.store.ClaimLimits;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.Store;
import dev.fsm.task.Change;
import dev.fsm.task.Task;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A runner's limits (SPEC section 4): the {@code concurrency:} caps of each machine's newest
 * version and its circuit breaker, against the attempts this runner holds. It turns them into
 * the {@link ClaimLimits} of the next claim, and hears each claimed task start and end.
 */
final class RunLimits {

  /** A machine's caps and breaker, from its newest version. */
  private record Rules(String version, Integer cap, Map<String, Integer> stateCaps,
      Breaker breaker) {}

  /** Histories read per machine to seed its breaker. */
  static final int SEEDED_TASKS = BreakerReplay.TASKS;

  private final Store store;
  private final MachineLibrary machines;
  private final RunListener listener;
  private final Clock clock;
  /** The only machines this runner claims ({@code run --machine}); empty for all. */
  private final Set<String> only;

  private final Map<String, Rules> rules = new ConcurrentHashMap<>();
  /**
   * The latest news of each machine's breaker from other runners. News that comes while a
   * machine's rules are being read (seeding its breaker reads thousands of histories) finds no
   * breaker to follow; kept here, the rules follow it once they are in place.
   */
  private final Map<String, BreakerNews> news = new ConcurrentHashMap<>();
  private final Map<String, Integer> running = new HashMap<>();
  private final Map<String, Map<String, Integer>> runningInState = new HashMap<>();

  RunLimits(Store store, MachineLibrary machines, RunListener listener, Clock clock,
      Set<String> only) {
    this.store = store;
    this.only = Set.copyOf(only);
    this.machines = machines;
    this.listener = listener;
    this.clock = clock;
  }

  /**
   * Reads the rules of every machine with tasks, and again those of a machine with a newer
   * version (new work may bring either); a breaker whose settings did not change is kept.
   */
  void refresh() {
    Set<String> names = new HashSet<>();
    store.counts().forEach(c -> names.add(c.machine()));
    for (String name : names) {
      Rules known = rules.get(name);
      if (known == null || !known.version().equals(newest(name))) {
        Rules fresh = read(name);
        if (known != null && known.breaker() != null && fresh.breaker() != null
            && known.breaker().policy().equals(fresh.breaker().policy())) {
          fresh = new Rules(fresh.version(), fresh.cap(), fresh.stateCaps(), known.breaker());
        }
        rules.put(name, fresh);
        followNews(name);
      }
    }
  }

  private String newest(String name) {
    List<MachineVersion> versions = store.versions(name);
    return versions.isEmpty() ? "" : versions.get(versions.size() - 1).version();
  }

  /** What the next claim may start. */
  synchronized ClaimLimits limits(Instant now) {
    Map<String, Integer> machineRoom = new HashMap<>();
    Map<String, Map<String, Integer>> stateRoom = new HashMap<>();
    rules.forEach((name, r) -> {
      int room = Integer.MAX_VALUE;
      if (r.cap() != null) {
        room = Math.max(0, r.cap() - running.getOrDefault(name, 0));
      }
      if (r.breaker() != null) {
        room = Math.min(room, r.breaker().room(now));
      }
      if (room != Integer.MAX_VALUE) {
        machineRoom.put(name, room);
      }
      Map<String, Integer> inState = runningInState.getOrDefault(name, Map.of());
      r.stateCaps().forEach((state, cap) -> stateRoom.computeIfAbsent(name, k -> new HashMap<>())
          .put(state, Math.max(0, cap - inState.getOrDefault(state, 0))));
    });
    return new ClaimLimits(machineRoom, stateRoom, only);
  }

  /** A claimed task is now held: it counts against its caps until {@link #ended}. */
  synchronized void started(Task task, Instant now) {
    Rules r = rules.get(task.machine());
    if (r == null) {
      r = rules.computeIfAbsent(task.machine(), this::read);
      followNews(task.machine());
    }
    running.merge(task.machine(), 1, Integer::sum);
    runningInState.computeIfAbsent(task.machine(), k -> new HashMap<>())
        .merge(task.state(), 1, Integer::sum);
    if (r.breaker() != null) {
      r.breaker().started(task.id(), now);
    }
  }

  /**
   * A held task's work is over: {@code change} is what it recorded (empty when nothing was, as
   * after a stop); an attempt that ended tells the breaker whether it was an error.
   */
  void ended(Task task, Optional<Change> change, Instant now) {
    Rules r;
    synchronized (this) {
      r = rules.get(task.machine());
      running.merge(task.machine(), -1, Integer::sum);
      runningInState.get(task.machine()).merge(task.state(), -1, Integer::sum);
    }
    if (r == null || r.breaker() == null) {
      return;
    }
    AttemptResult result = change.map(c -> AttemptResult.of(c.entry(), stateOf(task)))
        .orElse(AttemptResult.NONE);
    if (result == AttemptResult.NONE) {
      r.breaker().abandoned(task.id());
      return;
    }
    r.breaker().ended(task.id(), result == AttemptResult.FAILED, now).ifPresent(c -> {
      listener.breaker(task.machine(), c);
      announce(r.breaker().news(task.machine(), c));
    });
  }

  /**
   * Whether the task's machine has a breaker open now: a task claimed before it opened (waiting
   * for a worker, or in a claim that crossed the opening) must not start (SPEC section 4).
   */
  boolean breakerOpen(Task task, Instant now) {
    Rules r = rules.get(task.machine());
    return r != null && r.breaker() != null
        && r.breaker().status(now).phase() == Breaker.Phase.OPEN;
  }

  /**
   * Another runner's breaker of a machine opened or closed: this runner's follows.
   *
   * @return true when this runner's breaker changed
   */
  boolean heard(BreakerNews news) {
    // Kept before the rules are looked at: a refresh puts its rules before it looks for news.
    this.news.put(news.machine(), news);
    return followNews(news.machine());
  }

  /** The machine's breaker follows the latest news of it, if any; true when that changed it. */
  private boolean followNews(String machine) {
    BreakerNews latest = news.get(machine);
    Rules r = rules.get(machine);
    if (latest == null || r == null || r.breaker() == null) {
      return false;
    }
    // Following news it already followed changes nothing (Breaker#follow), so both a refresh
    // and the news's own arrival may apply it.
    Optional<Breaker.Change> change = r.breaker().follow(latest, clock.instant());
    change.ifPresent(c -> listener.breaker(machine, c));
    return change.isPresent();
  }

  private void announce(BreakerNews news) {
    try {
      store.announce(news);
    } catch (RuntimeException e) {
      // News, not a record: the other runners still count their own attempts.
      listener.problem("could not tell the other runners that the breaker of machine `"
          + news.machine() + "` " + (news.open() ? "opened" : "closed") + ": "
          + e.getMessage());
    }
  }

  /**
   * Other runners' breaker news may have been missed: each breaker that is not open follows
   * what its machine's recent attempts, on every runner, say, as at a restart (a breaker they
   * would have opened opens here, until the end of its cooldown from their last error).
   */
  void reseed() {
    Instant now = clock.instant();
    rules.forEach((name, r) -> {
      if (r.breaker() == null || r.breaker().status(now).phase() == Breaker.Phase.OPEN) {
        return;
      }
      Breaker replayed;
      try {
        Machine m = machines.machine(name, r.version());
        replayed = replay(m, new Breaker(m.breaker()));
      } catch (FsmException e) {
        return;
      }
      Breaker.Status status = replayed.status(now);
      if (status.phase() == Breaker.Phase.OPEN) {
        BreakerNews seen = replayed.news(name, new Breaker.Change(status, true, false));
        r.breaker().follow(seen, now).ifPresent(c -> listener.breaker(name, c));
      }
    });
  }

  /** The earliest time a breaker changes by itself (a cooldown ends), if any will. */
  Optional<Instant> nextChange(Instant now) {
    return rules.values().stream().filter(r -> r.breaker() != null)
        .flatMap(r -> r.breaker().nextChange(now).stream()).min(Instant::compareTo);
  }

  /** The breakers this runner keeps, by machine. */
  Map<String, Breaker> breakers() {
    Map<String, Breaker> out = new HashMap<>();
    rules.forEach((name, r) -> {
      if (r.breaker() != null) {
        out.put(name, r.breaker());
      }
    });
    return out;
  }

  /**
   * The breaker as the attempts in its window left it, replayed from the histories of the
   * machine's newest {@value #SEEDED_TASKS} tasks: so a runner restarted while it was open keeps
   * it open (with the cooldown its failed probes doubled) instead of trying every task again.
   */
  private Breaker seeded(Machine m, Breaker breaker) {
    Breaker seeded = replay(m, breaker);
    Breaker.Status status = seeded.status(clock.instant());
    if (status.phase() == Breaker.Phase.OPEN) {
      listener.breaker(m.name(), new Breaker.Change(status, true, false));
    }
    return seeded;
  }

  /** The breaker with the attempts of the machine's recent histories replayed into it. */
  private Breaker replay(Machine m, Breaker breaker) {
    try {
      return BreakerReplay.into(breaker, store, m, clock.instant());
    } catch (RuntimeException e) {
      listener.problem("could not read the recent attempts of machine `" + m.name()
          + "`, so its breaker starts closed: " + e.getMessage());
      return breaker;
    }
  }

  private State stateOf(Task task) {
    try {
      return machines.machine(task.machine(), task.version()).state(task.state()).orElse(null);
    } catch (FsmException e) {
      return null;
    }
  }

  private Rules read(String name) {
    String version = newest(name);
    if (version.isEmpty()) {
      return new Rules(version, null, Map.of(), null);
    }
    try {
      Machine m = machines.machine(name, version);
      Map<String, Integer> stateCaps = new HashMap<>();
      m.states().values().forEach(s -> {
        if (s.concurrency() != null) {
          stateCaps.put(s.name(), s.concurrency());
        }
      });
      return new Rules(version, m.concurrency(), stateCaps,
          m.breaker() == null ? null : seeded(m, new Breaker(m.breaker())));
    } catch (FsmException e) {
      return new Rules(version, null, Map.of(), null);
    }
  }
}

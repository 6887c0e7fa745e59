package dev.fsm.operations;

import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.OperatorListener;
import dev.fsm.engine.PendingUpgrades;
import dev.fsm.engine.UpgradeDecision;
import dev.fsm.engine.UpgradeDecision.Kind;
import dev.fsm.engine.Upgrades;
import dev.fsm.model.Machine;
import dev.fsm.model.UpgradeStrategy;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.Store;
import dev.fsm.store.TaskNotFoundException;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Change;
import dev.fsm.task.Command;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code fsm upgrade} over a store this process opened: registers the file, then applies its
 * strategy to every unfinished task of an older version, one durable update per task. Each update
 * decides again from the task as it is then, so a crash or a second upgrade at the same time
 * leaves nothing half done that running it again does not finish.
 */
final class UpgradeRun {

  /** Tasks taken at a time: read without their contexts, as each update reads its task again. */
  private static final int PAGE = 256;
  private static final EnumSet<ShownStatus> UNFINISHED = EnumSet.of(ShownStatus.RUNNABLE,
      ShownStatus.WAITING, ShownStatus.SLEEPING, ShownStatus.PAUSED, ShownStatus.FAULT);

  private final Store store;
  private final MachineLibrary machines;
  private final Clock clock;
  private final String operator;
  private final OperatorListener listener;

  UpgradeRun(Store store, MachineLibrary machines, Clock clock, String operator,
      OperatorListener listener) {
    this.store = store;
    this.machines = machines;
    this.clock = clock;
    this.operator = operator;
    this.listener = listener;
  }

  UpgradeReport upgrade(MachineSource source, boolean dryRun) {
    Instant now = clock.instant();
    String name = source.name();
    Machine target = machines.read(name, MachineVersion.idOf(source.text()), source.text());
    UpgradeStrategy strategy = target.upgrade();
    List<MachineVersion> known = store.versions(name);
    MachineVersion to;
    if (dryRun) {
      to = MachineVersion.next(name, source.text(), now, known);
    } else {
      to = store.register(name, source.text(), now);
      machines.versionsChanged(name);
      machines.remember(name, source.file());
    }
    boolean registered = to.isAfter(known);
    Map<String, MachineVersion> byId = new TreeMap<>();
    store.versions(name).forEach(v -> byId.put(v.version(), v));
    known.forEach(v -> byId.put(v.version(), v));
    Map<Integer, Tally> tallies = new TreeMap<>();
    Optional<String> after = Optional.empty();
    boolean moved = false;
    try (Fanout fanout = new Fanout("fsm-upgrade")) {
      while (true) {
        List<Task> page = TaskLists.list(store, new TaskQuery(Optional.of(name),
            Optional.empty(), UNFINISHED, after, PAGE, TaskQuery.Order.ASCENDING,
            TaskQuery.Sort.ID), false);
        List<Task> older = new ArrayList<>();
        for (Task task : page) {
          MachineVersion from = byId.get(task.version());
          if (from == null || from.number() >= to.number() || task.status().isTerminal()) {
            continue;
          }
          Tally tally = tallies.computeIfAbsent(from.number(), n -> new Tally(from));
          if (dryRun) {
            tally.add(Upgrades.decide(task, machines.machine(name, from.version()), target,
                strategy, task.leaseAt(now).isPresent()));
          } else {
            older.add(task);
          }
        }
        List<Optional<UpgradeDecision>> decided = fanout.each(older,
            task -> apply(task.id(), byId.get(task.version()), to, target, strategy));
        for (int i = 0; i < older.size(); i++) {
          Optional<UpgradeDecision> d = decided.get(i);
          d.ifPresent(tallies.get(byId.get(older.get(i).version()).number())::add);
          moved |= d.map(x -> x.kind() == Kind.MOVE).orElse(false);
        }
        if (page.size() < PAGE) {
          break;
        }
        after = Optional.of(page.get(page.size() - 1).id());
      }
    }
    if (moved) {
      listener.workArrived();
    }
    List<UpgradeReport.FromVersion> older = tallies.values().stream()
        .filter(t -> t.total() > 0).map(Tally::report).toList();
    return new UpgradeReport(name, to.number(), to.version(), registered, strategy.word(),
        older, dryRun);
  }

  /** Applies the strategy to one task as it is now; empty when it no longer needs it. */
  private Optional<UpgradeDecision> apply(String id, MachineVersion from, MachineVersion to,
      Machine target, UpgradeStrategy strategy) {
    if (strategy == UpgradeStrategy.CONTINUE) {
      return Optional.of(UpgradeDecision.of(Kind.CONTINUE));
    }
    // Read before the update: reading a version may ask the store, which must not nest.
    Machine old = machines.machine(from.machine(), from.version());
    UpgradeDecision[] decided = new UpgradeDecision[1];
    Task after;
    try {
      after = store.update(id, t -> {
        Instant now = clock.instant();
        if (t.status().isTerminal() || !t.version().equals(from.version())) {
          throw new AlreadyDone();
        }
        boolean running = t.leaseAt(now).isPresent();
        UpgradeDecision d = Upgrades.decide(t, old, target, strategy, running);
        decided[0] = d;
        return switch (d.kind()) {
          case ABORT -> Upgrades.abort(t, from, to, now, operator);
          case MOVE_AFTER_ATTEMPT -> {
            if (Upgrades.pendingTarget(store.history(id), from.number())
                .filter(n -> n == to.number()).isPresent()) {
              throw new AlreadyPending();
            }
            yield Upgrades.pending(t, from, to, now, operator);
          }
          default -> unleasedMove(Upgrades.move(t, from, to, target, now, operator));
        };
      });
    } catch (AlreadyDone | TaskNotFoundException e) {
      return Optional.empty();
    } catch (AlreadyPending e) {
      return Optional.of(decided[0]);
    }
    switch (decided[0].kind()) {
      case ABORT -> listener.commandApplied(after, Command.KILL);
      case MOVE_AFTER_ATTEMPT -> {
        listener.upgradePending(after);
        // The attempt may have been recorded between the update and the runner hearing of it.
        new PendingUpgrades(store, machines).finish(id, clock, operator);
      }
      default -> { }
    }
    return Optional.of(decided[0]);
  }

  /** A running task an earlier upgrade marked already: it still moves once recorded. */
  private static final class AlreadyPending extends RuntimeException {
    AlreadyPending() {
      super(null, null, false, false);
    }
  }

  /** A parked task holds no lease: nothing runs it until an operator acts. */
  private static Change unleasedMove(Change move) {
    return move.next().lease() == null ? move
        : new Change(move.next().withLease(null), move.entry());
  }

  /** The task was finished, moved or marked already (by another upgrade, or a runner). */
  private static final class AlreadyDone extends RuntimeException {
    AlreadyDone() {
      super(null, null, false, false);
    }
  }

  /** The decisions for one older version's tasks. */
  private static final class Tally {
    final MachineVersion version;
    int continued;
    int moved;
    int later;
    int aborted;
    final Map<String, Integer> mayFault = new TreeMap<>();
    final Map<String, Integer> faulted = new TreeMap<>();

    Tally(MachineVersion version) {
      this.version = version;
    }

    void add(UpgradeDecision d) {
      switch (d.kind()) {
        case CONTINUE -> continued++;
        case MOVE -> moved++;
        case MOVE_AFTER_ATTEMPT -> {
          later++;
          if (d.missingState() != null) {
            mayFault.merge(d.missingState(), 1, Integer::sum);
          }
        }
        case FAULT -> faulted.merge(d.missingState(), 1, Integer::sum);
        case ABORT -> aborted++;
        default -> throw new IllegalStateException("unknown decision " + d);
      }
    }

    int total() {
      return continued + moved + later + aborted
          + faulted.values().stream().mapToInt(Integer::intValue).sum();
    }

    UpgradeReport.FromVersion report() {
      return new UpgradeReport.FromVersion(version.number(), version.version(), continued, moved,
          later, mayFault, faulted, aborted);
    }
  }
}

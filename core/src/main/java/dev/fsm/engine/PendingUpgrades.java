package dev.fsm.engine;

import dev.fsm.FsmException;
import dev.fsm.model.Machine;
import dev.fsm.model.UpgradeStrategy;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.Store;
import dev.fsm.store.TaskNotFoundException;
import dev.fsm.task.Change;
import dev.fsm.task.Task;
import dev.fsm.task.Transition;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Finishes the upgrade of a task that {@code fsm upgrade} found mid-attempt: its history says it
 * waits for the running attempt, and once that attempt is recorded (by the runner that ran it,
 * or, should that runner have died, at the next claim) it moves to the new version.
 */
public final class PendingUpgrades {

  private final Store store;
  private final MachineLibrary machines;

  /** Pending upgrades over a store and its versions. */
  public PendingUpgrades(Store store, MachineLibrary machines) {
    this.store = store;
    this.machines = machines;
  }

  /**
   * The move a claimed task still owes, if its history has a pending upgrade from its version.
   * Only tasks of a version older than the newest are looked at (their history is read).
   */
  public Optional<Change> owed(Task task, List<Transition> history, Instant now, String by) {
    List<MachineVersion> versions = machines.versions(task.machine());
    if (versions.isEmpty()
        || versions.get(versions.size() - 1).version().equals(task.version())) {
      return Optional.empty();
    }
    Optional<MachineVersion> from = machines.version(task.machine(), task.version());
    if (from.isEmpty()) {
      return Optional.empty();
    }
    return Upgrades.pendingTarget(history, from.get().number())
        .flatMap(n -> machines.version(task.machine(), n))
        .map(to -> Upgrades.move(task, from.get(), to, target(to), now, by));
  }

  /**
   * True when {@link #owed} may apply: a version registered after the task's says
   * {@code upgrade: upgrade}. Tasks left on their version by {@code continue} never have their
   * history read for it.
   */
  public boolean mayOwe(Task task) {
    boolean newer = false;
    for (MachineVersion v : machines.versions(task.machine())) {
      if (newer && upgrades(v)) {
        return true;
      }
      newer |= v.version().equals(task.version());
    }
    return false;
  }

  private boolean upgrades(MachineVersion v) {
    try {
      return machines.machine(v.machine(), v.version()).upgrade() == UpgradeStrategy.UPGRADE;
    } catch (FsmException e) {
      // A version that no longer reads here: look at the history rather than guess.
      return true;
    }
  }

  /**
   * Moves a task whose attempt was just recorded, if it still owes a move and nobody holds it;
   * a task claimed again meanwhile is moved by that claim instead.
   *
   * @return the task after the move, or empty when there was nothing to do
   */
  public Optional<Task> finish(String id, Clock clock, String by) {
    try {
      Task current = store.get(id).orElse(null);
      if (current == null || !mayOwe(current)) {
        return Optional.empty();
      }
      List<Transition> history = store.history(id);
      return Optional.of(store.update(id, t -> {
        // Read under the store's lock, after the outcome this move follows: a time read
        // before the reads above came before that outcome's in the history.
        Instant now = clock.instant();
        if (t.status().isTerminal() || t.leaseAt(now).isPresent()
            || !t.version().equals(current.version())) {
          throw new NothingOwed();
        }
        return owed(t, history, now, by).orElseThrow(NothingOwed::new);
      }));
    } catch (NothingOwed | TaskNotFoundException e) {
      return Optional.empty();
    }
  }

  private Machine target(MachineVersion to) {
    return machines.machine(to.machine(), to.version());
  }

  /** The task owes no move (any more); nothing is recorded. */
  private static final class NothingOwed extends RuntimeException {
    NothingOwed() {
      super(null, null, false, false);
    }
  }
}

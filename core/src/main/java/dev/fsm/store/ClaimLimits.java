package dev.fsm.store;

import dev.fsm.task.Task;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * How many more attempts a claim may start, per machine and per machine and state: what
 * {@code concurrency:} caps and an open circuit breaker leave (SPEC section 4). Plain data, so a
 * database store can turn it into its query; a group not named has no limit. A task over a limit
 * stays due and is passed over, oldest first, as if it were not there yet: not an error.
 *
 * @param machines machine name to how many more of its attempts may start (0 or more)
 * @param states machine name to state name to how many more of that state's may start
 * @param only the only machines whose tasks may be claimed ({@code fsm run --machine}); empty
 *     for every machine
 */
public record ClaimLimits(Map<String, Integer> machines, Map<String, Map<String, Integer>> states,
    Set<String> only) {

  /** No limits: every due task may be claimed. */
  public static final ClaimLimits NONE = new ClaimLimits(Map.of(), Map.of());

  public ClaimLimits {
    machines = Map.copyOf(machines);
    Map<String, Map<String, Integer>> copy = new HashMap<>();
    states.forEach((m, s) -> copy.put(m, Map.copyOf(s)));
    states = Map.copyOf(copy);
    only = Set.copyOf(only);
  }

  /** Limits on every machine's tasks. */
  public ClaimLimits(Map<String, Integer> machines, Map<String, Map<String, Integer>> states) {
    this(machines, states, Set.of());
  }

  /** These limits, claiming only tasks of {@code names} (every machine when empty). */
  public ClaimLimits onlyMachines(Set<String> names) {
    return new ClaimLimits(machines, states, names);
  }

  /** True when no group is limited and every machine may be claimed. */
  public boolean none() {
    return machines.isEmpty() && states.isEmpty() && only.isEmpty();
  }

  /** True when tasks of {@code machine} may be claimed at all. */
  public boolean serves(String machine) {
    return only.isEmpty() || only.contains(machine);
  }

  /** The machines for which some named group (the machine or one of its states) has room. */
  public Set<String> machinesWithRoom() {
    Set<String> found = new HashSet<>();
    machines.forEach((m, room) -> {
      if (room > 0) {
        found.add(m);
      }
    });
    states.forEach((m, s) -> {
      if (s.values().stream().anyMatch(room -> room > 0)) {
        found.add(m);
      }
    });
    return found;
  }

  /** True when some group may start nothing more now. */
  public boolean anyFull() {
    return machines.containsValue(0)
        || states.values().stream().anyMatch(s -> s.containsValue(0));
  }

  /** A fresh count of what one claim may still take, spent as it takes tasks. */
  public Budget budget() {
    return new Budget(this);
  }

  /** What is left of the limits during one claim; not thread-safe (one claim at a time). */
  public static final class Budget {
    private final ClaimLimits limits;
    private final Map<String, Integer> machinesTaken = new HashMap<>();
    private final Map<String, Integer> statesTaken = new HashMap<>();

    private Budget(ClaimLimits limits) {
      this.limits = limits;
    }

    /** True when the limits leave room for one more task of this machine and state. */
    public boolean hasRoom(String machine, String state) {
      if (!limits.serves(machine)) {
        return false;
      }
      Integer machineRoom = limits.machines.get(machine);
      Map<String, Integer> ofMachine = limits.states.get(machine);
      Integer stateRoom = ofMachine == null ? null : ofMachine.get(state);
      return (machineRoom == null || machinesTaken.getOrDefault(machine, 0) < machineRoom)
          && (stateRoom == null
              || statesTaken.getOrDefault(machine + '\u0000' + state, 0) < stateRoom);
    }

    /** True when the limits let this task start now; if so it is counted against them. */
    public boolean take(Task task) {
      if (!hasRoom(task.machine(), task.state())) {
        return false;
      }
      machinesTaken.merge(task.machine(), 1, Integer::sum);
      statesTaken.merge(task.machine() + '\u0000' + task.state(), 1, Integer::sum);
      return true;
    }
  }
}

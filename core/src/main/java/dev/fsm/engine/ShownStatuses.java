package dev.fsm.engine;

import dev.fsm.model.Behavior;
import dev.fsm.model.Machine;
import dev.fsm.model.State;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.TaskCount;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.yaml.MachineReader;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The one place that knows how a task shows: whether its state is externally progressed is its
 * machine version's, so the store (which knows only statuses) is asked for the versions once per
 * machine and each version's signal-waiting states are kept. Not thread-safe; one per request.
 */
public final class ShownStatuses {

  private final Function<String, List<MachineVersion>> versions;
  /** Per machine: per version id, the states that wait for a signal. */
  private final Map<String, Map<String, Set<String>>> external = new HashMap<>();
  /** Per machine: per version id, every state it declares. */
  private final Map<String, Map<String, Set<String>>> declaredStates = new HashMap<>();

  /** Reads a machine's versions through {@code versions} (the store's or the operations'). */
  public ShownStatuses(Function<String, List<MachineVersion>> versions) {
    this.versions = versions;
  }

  /** How the task shows: {@code waiting} when runnable in a state that waits for a signal. */
  public ShownStatus of(Task t) {
    return of(t.machine(), t.version(), t.state(), t.status());
  }

  /** How a task of this machine version, state and stored status shows. */
  public ShownStatus of(String machine, String version, String state, TaskStatus status) {
    Set<String> states = of(machine).get(version);
    return ShownStatus.of(status, states != null && states.contains(state));
  }

  /**
   * How a count shows. Counts carry no version, so a state counts as waiting for a signal when
   * every version of the machine that has it says so (a state that changed kind across versions
   * keeps its stored status).
   */
  public ShownStatus of(TaskCount c) {
    boolean anyExternal = false;
    boolean anyOther = false;
    for (Map.Entry<String, Set<String>> v : of(c.machine()).entrySet()) {
      if (v.getValue().contains(c.state())) {
        anyExternal = true;
      } else if (declared(c.machine(), v.getKey(), c.state())) {
        anyOther = true;
      }
    }
    return ShownStatus.of(c.status(), anyExternal && !anyOther);
  }

  /** Counts of one machine's state by stored status, as they show. */
  public Map<ShownStatus, Long> counts(String machine, String state,
      Map<TaskStatus, Long> byStored) {
    Map<ShownStatus, Long> shown = new EnumMap<>(ShownStatus.class);
    byStored.forEach((status, n) -> shown.merge(of(new TaskCount(machine, state, status, n)), n,
        Long::sum));
    return shown;
  }

  private boolean declared(String machine, String version, String state) {
    Set<String> states = declaredStates.getOrDefault(machine, Map.of()).get(version);
    return states != null && states.contains(state);
  }

  private Map<String, Set<String>> of(String machine) {
    Map<String, Set<String>> known = external.get(machine);
    if (known != null) {
      return known;
    }
    Map<String, Set<String>> byVersion = new HashMap<>();
    Map<String, Set<String>> all = new HashMap<>();
    for (MachineVersion v : versions.apply(machine)) {
      // Read, not validated: a state's kind is its shape, whether its programs exist here or not.
      Optional<Machine> read = MachineReader.read(Path.of(machine + ".yaml"), v.definition())
          .machine();
      Set<String> waiting = new HashSet<>();
      Set<String> declared = new HashSet<>();
      // A version that no longer reads shows its tasks by their stored status.
      read.map(Machine::states).orElse(Map.of()).forEach((name, s) -> {
        declared.add(name);
        if (waitsForSignal(s)) {
          waiting.add(name);
        }
      });
      byVersion.put(v.version(), waiting);
      all.put(v.version(), declared);
    }
    external.put(machine, byVersion);
    declaredStates.put(machine, all);
    return byVersion;
  }

  private static boolean waitsForSignal(State s) {
    return s.behavior() instanceof Behavior.External;
  }
}

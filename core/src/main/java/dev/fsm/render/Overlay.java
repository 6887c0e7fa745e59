package dev.fsm.render;

import dev.fsm.model.Behavior;
import dev.fsm.model.Machine;
import dev.fsm.model.State;
import dev.fsm.store.TaskCount;
import dev.fsm.task.ShownStatus;
import dev.fsm.task.Task;
import dev.fsm.task.Transition;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/** Live task data drawn over a machine: nothing, one task's path, or task counts per state. */
public sealed interface Overlay {

  /** The machine alone. */
  Overlay NONE = new None();

  /** No overlay. */
  record None() implements Overlay {}

  /** An edge of the machine: the state it leaves and the event that fires it. */
  record EdgeKey(String from, String event) {}

  /**
   * One task's way through the machine.
   *
   * @param taskId the task's id
   * @param state the state it is in now
   * @param status its status now, as users see it ({@code waiting} in a signal state)
   * @param visited every state it has been in, including the current one
   * @param taken how many times it followed each edge
   */
  record TaskPath(String taskId, String state, ShownStatus status, Set<String> visited,
      Map<EdgeKey, Integer> taken) implements Overlay {

    public TaskPath {
      visited = Set.copyOf(visited);
      taken = Map.copyOf(taken);
    }

    /**
     * The path from a task's history. Entries that are not edges of {@code machine} (operator
     * commands, retries within a state) mark no edge.
     */
    public static TaskPath of(Machine machine, Task task, List<Transition> history) {
      Set<String> visited = new LinkedHashSet<>();
      Map<EdgeKey, Integer> taken = new HashMap<>();
      if (!history.isEmpty()) {
        visited.add(history.get(0).from());
      }
      for (Transition t : history) {
        boolean isEdge = machine.state(t.from()).flatMap(s -> s.next(t.event()))
            .map(to -> to.equals(t.to())).orElse(false);
        if (isEdge) {
          taken.merge(new EdgeKey(t.from(), t.event()), 1, Integer::sum);
          visited.add(t.to());
        }
      }
      visited.add(task.state());
      return new TaskPath(task.id(), task.state(),
          ShownStatus.of(task.status(), waitsForSignal(machine, task.state())), visited, taken);
    }

    /** How many times the task followed the edge on {@code event} out of {@code from}. */
    public int times(String from, String event) {
      return taken.getOrDefault(new EdgeKey(from, event), 0);
    }
  }

  /**
   * How many tasks of the machine sit in each state, by status as users see it (runnable tasks
   * in a state of the drawn machine that waits for a signal count as waiting).
   *
   * @param byState state name to status to count; states without tasks are absent
   */
  record StateCounts(Map<String, Map<ShownStatus, Long>> byState) implements Overlay {

    public StateCounts {
      Map<String, Map<ShownStatus, Long>> copy = new TreeMap<>();
      byState.forEach((s, counts) -> copy.put(s, Map.copyOf(counts)));
      byState = Map.copyOf(copy);
    }

    /** The counts of {@code machine}'s states among the store's counts of every machine. */
    public static StateCounts of(Machine machine, List<TaskCount> counts) {
      Map<String, Map<ShownStatus, Long>> byState = new HashMap<>();
      for (TaskCount c : counts) {
        if (c.machine().equals(machine.name()) && machine.states().containsKey(c.state())
            && c.count() > 0) {
          byState.computeIfAbsent(c.state(), s -> new EnumMap<>(ShownStatus.class))
              .merge(ShownStatus.of(c.status(), waitsForSignal(machine, c.state())), c.count(),
                  Long::sum);
        }
      }
      return new StateCounts(byState);
    }

    /** The counts of one state by status, in status order; empty when no task is there. */
    public Map<ShownStatus, Long> of(State state) {
      Map<ShownStatus, Long> sorted = new EnumMap<>(ShownStatus.class);
      sorted.putAll(byState.getOrDefault(state.name(), Map.of()));
      return sorted;
    }

    /** The number of tasks in the busiest state, at least 1 so shading can divide by it. */
    public long max() {
      return Math.max(1, byState.values().stream()
          .mapToLong(m -> m.values().stream().mapToLong(Long::longValue).sum()).max().orElse(1));
    }
  }

  /** True when the machine's state waits for {@code fsm signal}. */
  private static boolean waitsForSignal(Machine machine, String state) {
    return machine.state(state).map(s -> s.behavior() instanceof Behavior.External)
        .orElse(false);
  }
}

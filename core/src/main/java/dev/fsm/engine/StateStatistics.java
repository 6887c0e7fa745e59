package dev.fsm.engine;

import dev.fsm.FsmException;
import dev.fsm.engine.StateStats;
import dev.fsm.model.Behavior;
import dev.fsm.model.Machine;
import dev.fsm.model.State;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.Store;
import dev.fsm.store.TaskCount;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code fsm stats}: per state, task counts by status (exact), and durations and error rates from
 * the histories of each machine's newest {@value #SAMPLED_TASKS} tasks, so they show recent
 * behaviour.
 */
public final class StateStatistics {

  /** Histories read per machine; counts are exact whatever the number of tasks. */
  public static final int SAMPLED_TASKS = 20_000;

  /** Successful durations kept per state for the percentiles. */
  private static final int KEPT = Timeouts.WINDOW * 50;

  private StateStatistics() {}

  /** Statistics of one machine, or of every machine with tasks when {@code machine} is null. */
  public static List<StateStats> compute(Store store, MachineLibrary machines, String machine) {
    return compute(store, machines, machine, SAMPLED_TASKS);
  }

  /** As {@link #compute(Store, MachineLibrary, String)}, from the newest {@code sampledTasks}. */
  static List<StateStats> compute(Store store, MachineLibrary machines, String machine,
      int sampledTasks) {
    Map<String, Map<String, Map<TaskStatus, Long>>> counts = new LinkedHashMap<>();
    for (TaskCount c : store.counts()) {
      if (machine == null || c.machine().equals(machine)) {
        counts.computeIfAbsent(c.machine(), k -> new LinkedHashMap<>())
            .computeIfAbsent(c.state(), k -> new EnumMap<>(TaskStatus.class))
            .merge(c.status(), c.count(), Long::sum);
      }
    }
    Set<String> names = new LinkedHashSet<>(counts.keySet());
    if (machine != null) {
      if (names.isEmpty() && store.versions(machine).isEmpty()) {
        throw new FsmException("no machine `" + machine + "` in this store; `fsm machines` lists"
            + " them");
      }
      names.add(machine);
    }
    List<StateStats> out = new ArrayList<>();
    for (String name : names) {
      out.addAll(ofMachine(store, machines, name, counts.getOrDefault(name, Map.of()),
          sampledTasks));
    }
    return out;
  }

  private static List<StateStats> ofMachine(Store store, MachineLibrary machines, String name,
      Map<String, Map<TaskStatus, Long>> counts, int sampledTasks) {
    Map<String, State> states = new LinkedHashMap<>();
    List<MachineVersion> versions = store.versions(name);
    if (!versions.isEmpty()) {
      MachineVersion latest = versions.get(versions.size() - 1);
      try {
        Machine m = machines.machine(name, latest.version());
        states.putAll(m.states());
      } catch (FsmException e) {
        // An unreadable version still has counts worth showing.
      }
    }
    Map<String, DurationSamples> samples = new LinkedHashMap<>();
    Map<String, DurationSamples> recent = new LinkedHashMap<>();
    Map<String, long[]> attemptsAndErrors = new LinkedHashMap<>();
    sample(store, name, states, sampledTasks, samples, recent, attemptsAndErrors);
    Set<String> stateNames = new LinkedHashSet<>(states.keySet());
    stateNames.addAll(counts.keySet());
    List<StateStats> out = new ArrayList<>();
    for (String s : stateNames) {
      DurationSamples d = samples.getOrDefault(s, new DurationSamples(1));
      long[] ae = attemptsAndErrors.getOrDefault(s, new long[2]);
      State state = states.get(s);
      // The limit as a runner computes it: from the last window of successes, not all of them.
      String timeout = state == null ? "-"
          : state.behavior() instanceof Behavior.Run ? Timeouts.limit(state.timeout(),
              recent.getOrDefault(s, new DurationSamples(1))).text() : "-";
      out.add(new StateStats(name, s, counts.getOrDefault(s, Map.of()), d.count(),
          d.percentile(50), d.percentile(95), d.percentile(99),
          ae[0] == 0 ? 0.0 : (double) ae[1] / ae[0], timeout));
    }
    return out;
  }

  private static void sample(Store store, String machine, Map<String, State> states,
      int sampledTasks, Map<String, DurationSamples> samples,
      Map<String, DurationSamples> recent, Map<String, long[]> attemptsAndErrors) {
    Map<String, NewestDurations> successes = new LinkedHashMap<>();
    NewestHistories.read(store, machine, sampledTasks, NewestHistories.PASSED_OVER, history -> {
      for (Transition t : history) {
        AttemptResult result = AttemptResult.of(t, states.get(t.from()));
        if (result == AttemptResult.NONE) {
          continue;
        }
        long[] ae = attemptsAndErrors.computeIfAbsent(t.from(), k -> new long[2]);
        ae[0]++;
        if (result == AttemptResult.FAILED) {
          ae[1]++;
        } else if (result == AttemptResult.SUCCEEDED) {
          successes.computeIfAbsent(t.from(), k -> new NewestDurations(KEPT))
              .add(t.time(), t.durationMillis());
        }
      }
      return true;
    });
    // Oldest first, so each DurationSamples keeps the newest it can hold.
    successes.forEach((state, newest) -> {
      DurationSamples all = new DurationSamples(KEPT);
      DurationSamples window = new DurationSamples(Timeouts.WINDOW);
      for (Duration d : newest.oldestFirst()) {
        all.add(d);
        window.add(d);
      }
      samples.put(state, all);
      recent.put(state, window);
    });
  }
}

package dev.fsm.engine;

import dev.fsm.model.State;
import dev.fsm.store.Store;
import dev.fsm.task.Transition;
import java.time.Duration;
import java.util.List;

/** Seeds a runner's adaptive timeouts with a state's newest successful durations in the store. */
final class RecentSuccesses {

  /**
   * Histories read at most per state: the seed runs on the worker that first needs the state's
   * limit, so a huge store, or a state few tasks reach, must not hold that claim up for long.
   */
  static final int TASKS = 2_000;

  private RecentSuccesses() {}

  /**
   * A seed that reads {@code store}. A read that fails is reported to {@code listener} and leaves
   * the state on the default, as a new state would be: the attempt must not fail for it.
   */
  static Timeouts.Seed seed(Store store, RunListener listener) {
    return (machine, state) -> {
      try {
        return read(store, machine, state, Timeouts.WINDOW, TASKS);
      } catch (RuntimeException e) {
        listener.problem("could not read the recent durations of state `" + state.name()
            + "` of machine `" + machine + "`, so its timeout starts from the default: "
            + e.getMessage());
        return List.of();
      }
    };
  }

  /**
   * Up to {@code samples} of the newest successful durations of the state, oldest first, from
   * the histories of the machine's newest tasks: it stops once it has {@code samples} or has read
   * {@code tasks} histories.
   */
  static List<Duration> read(Store store, String machine, State state, int samples, int tasks) {
    NewestDurations newest = new NewestDurations(samples);
    NewestHistories.read(store, machine, tasks, 1, history -> {
      for (Transition t : history) {
        if (t.from().equals(state.name())
            && AttemptResult.of(t, state) == AttemptResult.SUCCEEDED) {
          newest.add(t.time(), t.durationMillis());
        }
      }
      return newest.count() < samples;
    });
    return newest.oldestFirst();
  }
}

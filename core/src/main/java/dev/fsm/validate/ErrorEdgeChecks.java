package dev.fsm.validate;

import dev.fsm.diagnostic.Problems;
import dev.fsm.model.Behavior;
import dev.fsm.model.Machine;
import dev.fsm.model.State;
import dev.fsm.yaml.SourceMap;

/**
 * Warns about error handling that can never take effect: a {@code retry} that an {@code error}
 * edge overrides, and an {@code exhausted} edge that no retry policy can reach.
 */
final class ErrorEdgeChecks {

  private ErrorEdgeChecks() {}

  static void run(Machine machine, SourceMap sources, Problems problems) {
    for (State state : machine.states().values()) {
      if (sources.isDamaged(SourceMap.state(state.name()))
          || sources.isDamaged(SourceMap.stateKey(state.name(), "on"))) {
        continue;
      }
      boolean error = state.next(State.ERROR).isPresent();
      boolean exhausted = state.next(State.EXHAUSTED).isPresent();
      String name = state.name();
      if (!(state.behavior() instanceof Behavior.Run)) {
        // Other states run no action, so have no errors to retry; `retry:` there is warned of
        // where it is read, and final states with edges are errors.
        if (exhausted && !state.isFinal()) {
          problems.warning(sources.at(SourceMap.edge(name, State.EXHAUSTED)), "event `"
              + State.EXHAUSTED + "` of state `" + name + "` can never fire: only states that"
              + " `run` an action retry errors", "remove it");
        }
        continue;
      }
      String retryKey = SourceMap.stateKey(name, "retry");
      if (error && sources.has(retryKey)) {
        problems.warning(sources.at(retryKey), "`retry` in state `" + name + "` never applies:"
            + " its `error` edge takes every error at once", "remove `retry`, or to retry first"
            + " and then move on, rename the edge `" + State.ERROR + "` to `" + State.EXHAUSTED
            + "`");
      }
      if (error && exhausted) {
        problems.warning(sources.at(SourceMap.edge(name, State.EXHAUSTED)), "event `"
            + State.EXHAUSTED + "` of state `" + name + "` can never fire: its `error` edge"
            + " takes every error before the retry policy could give up", "remove one of them:"
            + " `error` moves on at the first error, `exhausted` once the retries are used up");
      }
    }
  }
}

package dev.fsm.engine;

import dev.fsm.model.Behavior;
import dev.fsm.model.State;
import dev.fsm.task.AttemptErrors;
import dev.fsm.task.Transition;
import java.util.Set;

/**
 * What a history entry says about an attempt of a state's action: the one rule by which {@code
 * fsm stats} and the seeding of adaptive timeouts tell successes from the rest.
 */
enum AttemptResult {

  /** The action ended with an event: its duration is a success sample. */
  SUCCEEDED,
  /** The action failed or timed out: an error as {@link AttemptErrors} defines it. */
  FAILED,
  /** The action asked to sleep: an attempt, but neither a success nor an error. */
  SLEPT,
  /**
   * Not the end of a runner's attempt of an action: an operator's command or signal, an
   * at-most-once start record, a wait state firing, a release at shutdown, or an entry of a state
   * that runs no action.
   */
  NONE;

  private static final Set<String> NOT_OUTCOMES = Set.of(Step.START, "wait", "release");

  /** The result an entry records, given {@code from}, the state named by its {@code from}. */
  static AttemptResult of(Transition entry, State from) {
    if (!Step.byRunner(entry) || NOT_OUTCOMES.contains(entry.event()) || from == null
        || !(from.behavior() instanceof Behavior.Run)) {
      return NONE;
    }
    if (AttemptErrors.isError(entry)) {
      return FAILED;
    }
    return entry.event().equals("sleep") ? SLEPT : SUCCEEDED;
  }
}

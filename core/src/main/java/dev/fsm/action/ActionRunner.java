package dev.fsm.action;

/** Runs one kind of action (programs, built-ins, Java classes) for one attempt. */
public interface ActionRunner {

  /**
   * Runs the action to its end and says how it ended. Blocks the calling worker. Never throws
   * for the action's own failures: those are {@link ActionOutcome.Error}. When {@code attempt}
   * is stopped, the action is stopped promptly and the result is {@link ActionOutcome.Stopped}.
   */
  ActionOutcome run(ActionRequest request, Attempt attempt);
}

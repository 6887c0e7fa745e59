package dev.fsm.action;

import dev.fsm.diagnostic.Printable;
import java.time.Duration;

/** What one attempt of a state's action came to, before the machine's rules are applied. */
public sealed interface ActionOutcome {

  /**
   * The action named an event.
   *
   * @param event the event's name; the engine refuses one the state has no edge for
   * @param context a JSON object to merge shallowly into the task's context, or null
   */
  record Event(String event, String context) implements ActionOutcome {}

  /** The action asked to be run again after a pause ({@code {"sleep": "10m"}}). */
  record Sleep(Duration duration) implements ActionOutcome {}

  /** The action failed; the message is what the user sees in the task's errors. */
  record Error(String message) implements ActionOutcome {

    /** The message as every view prints it: an action's bytes never drive the terminal. */
    public Error {
      message = Printable.of(message);
    }
  }

  /**
   * The action was stopped from outside before it finished: by a command, a lost lease, the
   * runner shutting down, or its timeout.
   */
  record Stopped(Attempt.StopReason reason) implements ActionOutcome {}
}

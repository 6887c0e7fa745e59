package dev.fsm.action.api;

import java.time.Duration;
import java.util.Objects;

/** How an {@link FsmAction} ended: an event, a request to sleep, or an error. */
public sealed interface ActionResult {

  /** Fires {@code name}, the state's edge for it decides the next state. */
  static ActionResult event(String name) {
    return new Event(name, null);
  }

  /** Fires {@code name} and merges {@code contextJson}, a JSON object, into the task's context. */
  static ActionResult event(String name, String contextJson) {
    return new Event(name, contextJson);
  }

  /** Runs the action again after {@code duration}. */
  static ActionResult sleep(Duration duration) {
    return new Sleep(duration);
  }

  /** Records {@code message} as the task's error and applies the state's retry policy. */
  static ActionResult error(String message) {
    return new Error(message);
  }

  /** An event, with a JSON object to merge into the context or null. */
  record Event(String name, String contextJson) implements ActionResult {
    public Event {
      Objects.requireNonNull(name, "name");
    }
  }

  /** A request to run again later. */
  record Sleep(Duration duration) implements ActionResult {
    public Sleep {
      Objects.requireNonNull(duration, "duration");
    }
  }

  /** A failure with a message for the task's error list. */
  record Error(String message) implements ActionResult {
    public Error {
      Objects.requireNonNull(message, "message");
    }
  }
}

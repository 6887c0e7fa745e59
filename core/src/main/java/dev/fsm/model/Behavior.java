package dev.fsm.model;

import java.time.Duration;

/** What a state does when a task enters it. */
public sealed interface Behavior {

  /** Runs an action whose result is the next event. */
  record Run(Action action) implements Behavior {}

  /** Waits for a duration, then fires {@code ok}. */
  record Wait(Duration duration) implements Behavior {}

  /** Waits for someone to fire an event with {@code fsm signal}. */
  record External() implements Behavior {}

  /** Ends the task with an outcome. */
  record Final(Outcome outcome) implements Behavior {}

  /** A short word for people: action, wait, external or final. */
  default String kind() {
    if (this instanceof Run) {
      return "action";
    } else if (this instanceof Wait) {
      return "wait";
    } else if (this instanceof External) {
      return "external";
    }
    return "final";
  }
}

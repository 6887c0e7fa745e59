package dev.fsm.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One state of a machine: what it does when a task enters it, and where each event leads.
 *
 * @param name the state's name
 * @param description free text for people, may be empty
 * @param behavior what the state does: run an action, wait, wait for a signal, or end the task
 * @param timeout how long one attempt of the state's action may take
 * @param retry how errors in this state are retried
 * @param on event name to next state name, in file order
 * @param concurrency at most this many attempts of this state run at once; null: no cap of its
 *     own (never inherited through {@code defaults})
 */
public record State(
    String name,
    String description,
    Behavior behavior,
    Timeout timeout,
    RetryPolicy retry,
    Map<String, String> on,
    Integer concurrency) {

  /** The event a wait state fires, and a successful program's default event. */
  public static final String OK = "ok";
  /** An edge on this event turns an action error into an ordinary event. */
  public static final String ERROR = "error";
  /** An edge on this event catches a timed-out action. */
  public static final String TIMEOUT = "timeout";
  /** An edge on this event is taken when the retry policy gives up, instead of failing. */
  public static final String EXHAUSTED = "exhausted";

  public State {
    on = Collections.unmodifiableMap(new LinkedHashMap<>(on));
  }

  /** A state with no concurrency cap of its own. */
  public State(String name, String description, Behavior behavior, Timeout timeout,
      RetryPolicy retry, Map<String, String> on) {
    this(name, description, behavior, timeout, retry, on, null);
  }

  /** The state this event leads to, if the state has an edge for it. */
  public Optional<String> next(String event) {
    return Optional.ofNullable(on.get(event));
  }

  /** True for a terminal state. */
  public boolean isFinal() {
    return behavior instanceof Behavior.Final;
  }
}

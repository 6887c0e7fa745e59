package dev.fsm.model;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A machine definition: named states, the events between them and what each state does.
 *
 * @param name the machine's name, unique in a machines folder
 * @param description free text for people, may be empty
 * @param initial the state a new task starts in
 * @param upgrade what happens to unfinished tasks when a new version is registered
 * @param states every state, in the order the file lists them
 * @param file the definition file; relative program paths resolve against its folder
 * @param concurrency at most this many attempts of the machine run at once; null: no cap
 * @param breaker the circuit breaker; null: none
 * @param retention how long a terminal task is kept before runners purge it; null: for ever
 */
public record Machine(
    String name,
    String description,
    String initial,
    UpgradeStrategy upgrade,
    Map<String, State> states,
    Path file,
    Integer concurrency,
    BreakerPolicy breaker,
    Duration retention) {

  public Machine {
    states = Collections.unmodifiableMap(new LinkedHashMap<>(states));
  }

  /** A machine with no concurrency cap, no breaker, and no {@code retention:}. */
  public Machine(String name, String description, String initial, UpgradeStrategy upgrade,
      Map<String, State> states, Path file) {
    this(name, description, initial, upgrade, states, file, null, null, null);
  }

  /** Its {@code retention:}, if it has one. */
  public Optional<Duration> retentionPeriod() {
    return Optional.ofNullable(retention);
  }

  /** The state with this name, if the machine has one. */
  public Optional<State> state(String stateName) {
    return Optional.ofNullable(states.get(stateName));
  }

  /** State names in file order. */
  public List<String> stateNames() {
    return List.copyOf(states.keySet());
  }

  /** The folder program actions run in and resolve relative paths against. */
  public Path folder() {
    Path parent = file.toAbsolutePath().getParent();
    return parent == null ? Path.of(".") : parent;
  }
}

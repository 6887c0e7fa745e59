package dev.fsm.validate;

import dev.fsm.diagnostic.DidYouMean;
import dev.fsm.diagnostic.Problems;
import dev.fsm.model.Machine;
import dev.fsm.model.State;
import dev.fsm.yaml.SourceMap;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks a machine as a graph: the initial state exists, every edge leads somewhere, every
 * non-final state has a way out, every state is reachable and can reach an end.
 */
final class GraphChecks {

  /**
   * Unknown names that get a did-you-mean look-up. A file with more is not a typo away from
   * right, and unbounded look-ups would make a large hostile file quadratic.
   */
  private static final int MAX_SUGGESTIONS = 20;
  /** States listed in a hint when no name is close: a hint is one line, not a dump. */
  private static final int MAX_LISTED = 10;

  private final Machine machine;
  private final SourceMap sources;
  private final Problems problems;
  /** Each unknown target's likely meaning, looked up once: a look-up scans every state name. */
  private final Map<String, Optional<String>> resolved = new HashMap<>();
  private int suggestionsLeft = MAX_SUGGESTIONS;
  /** With a broken `on:` somewhere, reachability would report states it merely cannot see. */
  private boolean edgesDamaged;
  /** True when an edge leads to a state that neither exists nor is a likely typo. */
  private boolean unresolvedEdge;

  GraphChecks(Machine machine, SourceMap sources, Problems problems) {
    this.machine = machine;
    this.sources = sources;
    this.problems = problems;
  }

  void run() {
    for (State state : machine.states().values()) {
      edgesDamaged |= damaged(state);
      for (String target : state.on().values()) {
        unresolvedEdge |= resolve(target).isEmpty();
      }
    }
    Optional<String> start = checkInitial();
    checkEdges();
    checkWayOut();
    if (start.isPresent()) {
      Set<String> reachable = reachableFrom(start.get());
      checkReachable(reachable);
      checkCanFinish(reachable);
    }
  }

  /** The state tasks start in, or the one a typo most likely meant; empty when unknown. */
  private Optional<String> checkInitial() {
    if (sources.isDamaged("initial")) {
      return Optional.empty();
    }
    if (machine.state(machine.initial()).isPresent()) {
      return Optional.of(machine.initial());
    }
    problems.error(sources.at("initial"), "initial state `" + machine.initial()
        + "` is not a state of this machine", hintFor(machine.initial()));
    return resolve(machine.initial());
  }

  private void checkEdges() {
    for (State state : machine.states().values()) {
      state.on().forEach((event, target) -> {
        if (machine.state(target).isEmpty()) {
          problems.error(sources.at(SourceMap.edge(state.name(), event)), "event `" + event
              + "` of state `" + state.name() + "` leads to unknown state `" + target + "`",
              hintFor(target));
        }
      });
    }
  }

  private void checkWayOut() {
    for (State state : machine.states().values()) {
      if (state.isFinal() || !state.on().isEmpty() || damaged(state)) {
        continue;
      }
      problems.error(sources.at(SourceMap.state(state.name())), "state `" + state.name()
          + "` has no way out: it is not final and has no `on:` edges",
          "add `on: {EVENT: NEXT_STATE}`, or end the task here with `final: completed`");
    }
  }

  private void checkReachable(Set<String> reachable) {
    for (State state : machine.states().values()) {
      if (!reachable.contains(state.name()) && !edgesDamaged && !unresolvedEdge) {
        problems.error(sources.at(SourceMap.state(state.name())), "state `" + state.name()
            + "` cannot be reached from the initial state `" + machine.initial() + "`",
            "add an edge to it, or remove it");
      }
    }
  }

  private void checkCanFinish(Set<String> reachable) {
    if (!hasFinalState() && !bodyDamaged()) {
      problems.warning(sources.at("states"), "machine `" + machine.name()
          + "` has no final state, so its tasks never finish",
          "add a state with `final: completed` or `final: failed`");
      return;
    }
    Set<String> canFinish = canReachFinal();
    for (State state : machine.states().values()) {
      if (reachable.contains(state.name()) && !canFinish.contains(state.name())
          && !damaged(state) && !edgesDamaged && !unresolvedEdge && !state.on().isEmpty()) {
        problems.warning(sources.at(SourceMap.state(state.name())), "no final state can be"
            + " reached from state `" + state.name() + "`; tasks that get here never finish",
            "add an edge towards a final state");
      }
    }
  }

  private Set<String> reachableFrom(String start) {
    Set<String> seen = new HashSet<>();
    Deque<String> todo = new ArrayDeque<>(List.of(start));
    while (!todo.isEmpty()) {
      String name = todo.pop();
      if (seen.add(name)) {
        machine.state(name).ifPresent(s -> s.on().values().forEach(t -> resolve(t)
            .ifPresent(todo::add)));
      }
    }
    return seen;
  }

  /**
   * The state a target names, or the one a typo most likely meant, so that one misspelt edge is
   * reported once rather than again as every state behind it being unreachable.
   */
  private Optional<String> resolve(String target) {
    if (machine.states().containsKey(target)) {
      return Optional.of(target);
    }
    return resolved.computeIfAbsent(target, t -> suggestionsLeft-- > 0
        ? DidYouMean.closest(t, machine.states().keySet()) : Optional.empty());
  }

  private Set<String> canReachFinal() {
    Map<String, Set<String>> incoming = new HashMap<>();
    for (State state : machine.states().values()) {
      for (String target : state.on().values()) {
        resolve(target).ifPresent(t -> incoming.computeIfAbsent(t, x -> new HashSet<>())
            .add(state.name()));
      }
    }
    Set<String> seen = new HashSet<>();
    Deque<String> todo = new ArrayDeque<>();
    for (State state : machine.states().values()) {
      if (state.isFinal()) {
        todo.add(state.name());
      }
    }
    while (!todo.isEmpty()) {
      String name = todo.pop();
      if (seen.add(name)) {
        todo.addAll(incoming.getOrDefault(name, Set.of()));
      }
    }
    return seen;
  }

  private boolean hasFinalState() {
    for (State state : machine.states().values()) {
      if (state.isFinal()) {
        return true;
      }
    }
    return false;
  }

  private boolean damaged(State state) {
    return sources.isDamaged(SourceMap.state(state.name()))
        || sources.isDamaged(SourceMap.stateKey(state.name(), "on"));
  }

  /** A state whose body could not be read may have been meant as the final one. */
  private boolean bodyDamaged() {
    return machine.states().keySet().stream()
        .anyMatch(name -> sources.isDamaged(SourceMap.state(name)));
  }

  private String hintFor(String name) {
    Optional<String> closest = resolve(name);
    if (closest.isPresent()) {
      return "did you mean `" + closest.get() + "`?";
    }
    int more = machine.states().size() - MAX_LISTED;
    return machine.states().keySet().stream().limit(MAX_LISTED)
        .collect(Collectors.joining(", ", "states: ", more > 0 ? " and " + more + " more" : ""));
  }
}

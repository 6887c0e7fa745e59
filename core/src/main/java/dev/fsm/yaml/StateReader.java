package dev.fsm.yaml;

import dev.fsm.diagnostic.DidYouMean;
import dev.fsm.diagnostic.Problems;
import dev.fsm.model.Action;
import dev.fsm.model.Behavior;
import dev.fsm.model.BuiltinAction;
import dev.fsm.model.Outcome;
import dev.fsm.model.RetryPolicy;
import dev.fsm.model.State;
import dev.fsm.model.Timeout;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;

/** Reads one entry of {@code states:} into a {@link State}, reporting what is wrong with it. */
final class StateReader {

  static final List<String> KEYS =
      List.of("description", "run", "wait", "on", "timeout", "retry", "final", "concurrency");
  private static final List<String> OUTCOMES = List.of("completed", "failed");

  private final Problems problems;
  private final SourceMap sources;
  private final Timeout defaultTimeout;
  private final RetryPolicy defaultRetry;

  StateReader(Problems problems, SourceMap sources, Timeout defaultTimeout,
      RetryPolicy defaultRetry) {
    this.problems = problems;
    this.sources = sources;
    this.defaultTimeout = defaultTimeout;
    this.defaultRetry = defaultRetry;
  }

  State read(String name, Node body) {
    String where = "in state `" + name + "`";
    if (Scalars.isNull(body)) {
      return new State(name, "", new Behavior.External(), defaultTimeout, defaultRetry, Map.of());
    }
    if (!(body instanceof MappingNode mappingNode)) {
      problems.error(YamlFile.at(body), "state `" + name + "` must be a mapping of settings"
          + " (run, wait, on, final...), found " + Scalars.describe(body),
          "for example `" + name + ": {run: scripts/step.sh, on: {ok: next}}`");
      sources.damage(SourceMap.state(name));
      return new State(name, "", new Behavior.External(), defaultTimeout, defaultRetry, Map.of());
    }
    Mapping m = Mapping.of(mappingNode, problems, where);
    m.rejectUnknown(KEYS, problems, where);
    String description = m.get("description")
        .flatMap(e -> Scalars.text(e.value(), problems, "`description` " + where)).orElse("");
    Map<String, String> on = edges(name, m);
    Behavior behavior = behavior(name, m, on);
    Timeout timeout = m.get("timeout")
        .flatMap(e -> PolicyReader.timeout(e.value(), problems, where)).orElse(defaultTimeout);
    m.get("retry").ifPresent(e -> sources.put(SourceMap.stateKey(name, "retry"), e.keyAt()));
    RetryPolicy retry = m.get("retry")
        .map(e -> PolicyReader.retry(e.value(), problems, where).over(defaultRetry))
        .orElse(defaultRetry);
    m.get("concurrency").ifPresent(e -> sources.put(SourceMap.stateKey(name, "concurrency"),
        e.keyAt()));
    Integer concurrency = m.get("concurrency")
        .flatMap(e -> LimitsReader.concurrency(e.value(), problems, where)).orElse(null);
    if (!(behavior instanceof Behavior.Run) && !(behavior instanceof Behavior.Final)) {
      for (String key : List.of("timeout", "retry", "concurrency")) {
        m.get(key).ifPresent(e -> problems.warning(e.keyAt(), "`" + key + "` has no effect "
            + where + ": it applies to states that `run` an action", "remove it"));
      }
    }
    return new State(name, description, behavior, timeout, retry, on, concurrency);
  }

  private Behavior behavior(String name, Mapping m, Map<String, String> on) {
    String where = "in state `" + name + "`";
    Optional<Mapping.Entry> fin = m.get("final");
    if (fin.isPresent()) {
      for (String key : List.of("run", "wait", "on", "timeout", "retry", "concurrency")) {
        m.get(key).ifPresent(e -> problems.error(e.keyAt(), "final state `" + name
            + "` cannot have `" + key + "`: a task that reaches it has ended",
            "remove `" + key + "`, or remove `final` to keep the task going"));
      }
      Outcome outcome = Scalars.text(fin.get().value(), problems, "`final` " + where)
          .flatMap(word -> outcome(word, fin.get().value(), where))
          .orElse(Outcome.COMPLETED);
      return new Behavior.Final(outcome);
    }
    Optional<Mapping.Entry> run = m.get("run");
    Optional<Mapping.Entry> wait = m.get("wait");
    if (run.isPresent() && wait.isPresent()) {
      problems.error(wait.get().keyAt(), "state `" + name + "` has both `run` and `wait`",
          "a state either runs an action or waits; split it into two states");
    }
    if (run.isPresent()) {
      sources.put(SourceMap.stateKey(name, "run"), run.get().valueAt());
      Optional<Action> action = ActionReader.read(run.get().value(), problems, name);
      action.ifPresent(a -> checkBuiltinEvents(name, a, on, run.get()));
      return new Behavior.Run(action.orElse(new Action.Builtin(BuiltinAction.NOOP, List.of(),
          "builtin:noop")));
    }
    if (wait.isPresent()) {
      Duration d = Scalars.duration(wait.get().value(), problems, "`wait` " + where, false)
          .orElse(Duration.ofSeconds(1));
      if (!on.containsKey(State.OK) && !sources.isDamaged(SourceMap.stateKey(name, "on"))) {
        problems.error(wait.get().keyAt(), "wait state `" + name + "` has no `ok` edge",
            "a wait state fires `ok` when the wait is over: add `on: {ok: NEXT_STATE}`");
      }
      return new Behavior.Wait(d);
    }
    return new Behavior.External();
  }

  private Optional<Outcome> outcome(String word, Node node, String where) {
    if (word.equals("completed")) {
      return Optional.of(Outcome.COMPLETED);
    } else if (word.equals("failed")) {
      return Optional.of(Outcome.FAILED);
    }
    String hint = DidYouMean.hint(word, OUTCOMES);
    problems.error(YamlFile.at(node), "`final` " + where + " must be `completed` or `failed`,"
        + " found `" + word + "`", hint);
    return Optional.empty();
  }

  /** Built-ins that always emit a known event need an edge for it. */
  private void checkBuiltinEvents(String name, Action action, Map<String, String> on,
      Mapping.Entry run) {
    if (!(action instanceof Action.Builtin b) || sources.isDamaged(SourceMap.stateKey(name, "on"))) {
      return;
    }
    if (b.builtin() == BuiltinAction.EMIT && b.args().get(0).equals(State.EXHAUSTED)) {
      problems.error(run.valueAt(), "`" + b.text() + "` in state `" + name + "` emits `"
          + State.EXHAUSTED + "`, which is reserved: the retry policy fires it when it gives up",
          "emit another event; to move on after failed attempts, let the action fail and keep"
              + " the `exhausted` edge");
      return;
    }
    String event = switch (b.builtin()) {
      case NOOP, SLEEP -> State.OK;
      case EMIT -> b.args().get(0);
      case FAIL -> null;
    };
    if (event != null && !on.containsKey(event)) {
      problems.error(run.valueAt(), "`" + b.text() + "` in state `" + name + "` emits `" + event
          + "`, but the state has no edge for it",
          Optional.ofNullable(DidYouMean.hint(event, on.keySet()))
              .orElse("add `" + event + ": NEXT_STATE` under `on:`"));
    }
  }

  private Map<String, String> edges(String name, Mapping m) {
    Map<String, String> on = new LinkedHashMap<>();
    Optional<Mapping.Entry> entry = m.get("on");
    if (entry.isEmpty()) {
      return on;
    }
    String where = "in `on` of state `" + name + "`";
    if (Scalars.isNull(entry.get().value())) {
      return on;
    }
    Optional<MappingNode> node = Scalars.mapping(entry.get().value(), problems,
        "`on` of state `" + name + "`");
    if (node.isEmpty()) {
      sources.damage(SourceMap.stateKey(name, "on"));
      return on;
    }
    for (Mapping.Entry edge : Mapping.of(node.get(), problems, where).entries()) {
      String event = edge.key();
      if (!Names.isStateOrEventName(event)) {
        problems.error(edge.keyAt(), "event name `" + event + "` " + where + " is not a plain"
            + " name", "start with a letter; use letters, digits, `_` and `-`");
        sources.damage(SourceMap.stateKey(name, "on"));
        continue;
      }
      Optional<String> target = Scalars.text(edge.value(), problems,
          "the target of event `" + event + "` " + where);
      if (target.isEmpty()) {
        sources.damage(SourceMap.stateKey(name, "on"));
        continue;
      }
      on.put(event, target.get());
      sources.put(SourceMap.edge(name, event), edge.valueAt());
    }
    return on;
  }
}

package dev.fsm.yaml;

import dev.fsm.diagnostic.DidYouMean;
import dev.fsm.diagnostic.Problems;
import dev.fsm.model.BreakerPolicy;
import dev.fsm.model.Machine;
import dev.fsm.model.RetryPolicy;
import dev.fsm.model.State;
import dev.fsm.model.Timeout;
import dev.fsm.model.UpgradeStrategy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;

/**
 * Reads a machine file into the model, typing every value itself and reporting every problem
 * of shape, type and value with its line and column.
 */
public final class MachineReader {


  static final List<String> KEYS =
      List.of("machine", "description", "initial", "upgrade", "retention", "defaults",
          "states", "concurrency", "breaker");
  static final List<String> DEFAULTS_KEYS = List.of("timeout", "retry");

  private final Problems problems;
  private final SourceMap sources = new SourceMap();

  private MachineReader(Path file) {
    this.problems = new Problems(file);
  }

  /** Reads the machine file at {@code file}. */
  public static MachineDraft read(Path file) {
    MachineReader reader = new MachineReader(file);
    Optional<Machine> machine = YamlFile.compose(file, reader.problems).flatMap(reader::machine);
    return new MachineDraft(file, machine, reader.sources, reader.problems.all());
  }

  /** Reads machine YAML given as text; {@code file} names it in diagnostics. */
  public static MachineDraft read(Path file, String text) {
    MachineReader reader = new MachineReader(file);
    Optional<Machine> machine = YamlFile.compose(text, reader.problems).flatMap(reader::machine);
    return new MachineDraft(file, machine, reader.sources, reader.problems.all());
  }

  private Optional<Machine> machine(Node root) {
    if (!(root instanceof MappingNode rootMapping)) {
      problems.error(YamlFile.at(root), "a machine file must be a mapping with `machine:` and"
          + " `states:`, found " + Scalars.describe(root));
      return Optional.empty();
    }
    Mapping top = Mapping.of(rootMapping, problems, "at the top level");
    top.rejectUnknown(KEYS, problems, "at the top level");

    String name = top.get("machine").flatMap(this::machineName).orElse("");
    if (!top.has("machine")) {
      problems.error(YamlFile.at(root), "missing `machine:`", "name the machine, e.g. "
          + "`machine: order`");
    }
    String description = top.get("description")
        .flatMap(e -> Scalars.text(e.value(), problems, "`description`")).orElse("");
    UpgradeStrategy upgrade = top.get("upgrade").flatMap(this::upgrade)
        .orElse(UpgradeStrategy.CONTINUE);
    Integer concurrency = top.get("concurrency").flatMap(e -> LimitsReader.concurrency(e.value(),
        problems, "at the top level")).orElse(null);
    BreakerPolicy breaker = top.get("breaker").flatMap(e -> LimitsReader.breaker(e.value(),
        problems)).orElse(null);
    // Zero would purge a task the moment it ends, which nobody means by keeping tasks.
    Duration retention = top.get("retention").flatMap(e -> Scalars.duration(e.value(), problems,
        "`retention`", false)).orElse(null);

    Timeout timeout = Timeout.DEFAULT;
    RetryPolicy retry = RetryPolicy.DEFAULT;
    Optional<Mapping> defaults = top.get("defaults").flatMap(e ->
        Scalars.mapping(e.value(), problems, "`defaults`")
            .map(n -> Mapping.of(n, problems, "in `defaults`")));
    if (defaults.isPresent()) {
      Mapping d = defaults.get();
      // `concurrency` gets its own message below, not "unknown key".
      d.rejectUnknown(List.of("timeout", "retry", "concurrency"), problems, "in `defaults`");
      d.get("concurrency").ifPresent(e -> problems.error(e.keyAt(), "`concurrency` is not"
          + " inherited through `defaults`", "set it on the machine (all its attempts) or on"
          + " a state (that state's attempts)"));
      timeout = d.get("timeout").flatMap(e -> PolicyReader.timeout(e.value(), problems,
          "in `defaults`")).orElse(timeout);
      retry = d.get("retry").map(e -> PolicyReader.retry(e.value(), problems, "in `defaults`")
          .over(RetryPolicy.DEFAULT)).orElse(retry);
    }

    Optional<Mapping.Entry> statesEntry = top.get("states");
    if (statesEntry.isEmpty()) {
      problems.error(YamlFile.at(root), "missing `states:`",
          "list the machine's states under `states:`");
      return Optional.empty();
    }
    sources.put("states", statesEntry.get().keyAt());
    Map<String, State> states = states(statesEntry.get(), new StateReader(problems, sources,
        timeout, retry));
    if (states.isEmpty()) {
      return Optional.empty();
    }

    String initial = states.keySet().iterator().next();
    Optional<Mapping.Entry> initialEntry = top.get("initial");
    if (initialEntry.isPresent()) {
      sources.put("initial", initialEntry.get().valueAt());
      Optional<String> given = Scalars.text(initialEntry.get().value(), problems, "`initial`");
      if (given.isPresent()) {
        initial = given.get();
      } else {
        sources.damage("initial");
      }
    }
    if (concurrency != null) {
      warnAboveMachineCap(concurrency, states);
    }
    return Optional.of(new Machine(name, description, initial, upgrade, states, problems.file(),
        concurrency, breaker, retention));
  }

  /** A state cap above the machine's can never be reached: the machine's binds first. */
  private void warnAboveMachineCap(int machineCap, Map<String, State> states) {
    for (State s : states.values()) {
      if (s.concurrency() != null && s.concurrency() > machineCap) {
        String key = SourceMap.stateKey(s.name(), "concurrency");
        problems.warning(sources.at(key), "`concurrency: " + s.concurrency() + "` in state `" + s.name()
                + "` is above the machine's `concurrency: " + machineCap + "`, so it never"
                + " binds", "lower it to at most " + machineCap + ", or remove it");
      }
    }
  }

  private Map<String, State> states(Mapping.Entry entry, StateReader reader) {
    Map<String, State> states = new LinkedHashMap<>();
    Optional<MappingNode> node = Scalars.mapping(entry.value(), problems, "`states`");
    if (node.isEmpty()) {
      return states;
    }
    Mapping m = Mapping.of(node.get(), problems, "in `states`");
    for (Mapping.Entry state : m.entries()) {
      String name = state.key();
      if (!Names.isStateOrEventName(name)) {
        problems.error(state.keyAt(), "state name `" + name + "` is not a plain name",
            "start with a letter; use letters, digits, `_` and `-`, at most 63 characters");
        continue;
      }
      sources.put(SourceMap.state(name), state.keyAt());
      states.put(name, reader.read(name, state.value()));
    }
    if (node.get().getValue().isEmpty()) {
      problems.error(entry.keyAt(), "`states` is empty", "a machine needs at least one state");
    }
    return states;
  }

  private Optional<String> machineName(Mapping.Entry entry) {
    sources.put("machine", entry.valueAt());
    return Scalars.text(entry.value(), problems, "`machine`").flatMap(name -> {
      if (!Names.isMachineName(name)) {
        problems.error(entry.valueAt(), "machine name `" + name + "` is not allowed",
            "use 1 to 63 characters: a lowercase letter, then lowercase letters, digits, `_` or"
                + " `-`");
        return Optional.empty();
      }
      return Optional.of(name);
    });
  }

  private Optional<UpgradeStrategy> upgrade(Mapping.Entry entry) {
    List<String> words = Arrays.stream(UpgradeStrategy.values()).map(UpgradeStrategy::word)
        .toList();
    return Scalars.text(entry.value(), problems, "`upgrade`").flatMap(word -> {
      if (words.contains(word)) {
        return Optional.of(UpgradeStrategy.valueOf(word.toUpperCase(Locale.ROOT)));
      }
      String hint = DidYouMean.hint(word, words);
      problems.error(entry.valueAt(), "`upgrade` must be one of " + String.join(", ", words)
          + ", found `" + word + "`", hint);
      return Optional.empty();
    });
  }
}

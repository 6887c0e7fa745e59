package dev.fsm.yaml;

import dev.fsm.diagnostic.Problems;
import dev.fsm.model.Backoff;
import dev.fsm.model.RetryPolicy;
import dev.fsm.model.Timeout;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;

/** Reads {@code timeout:} and {@code retry:} settings, in a state or in {@code defaults:}. */
final class PolicyReader {

  static final List<String> RETRY_KEYS = List.of("max_errors", "window", "backoff");
  static final List<String> BACKOFF_KEYS = List.of("initial", "max", "multiplier", "jitter");

  private PolicyReader() {}

  /** The parts of a retry policy that were set; null where the policy inherits. */
  record RetryParts(Integer maxErrors, Duration window, Backoff backoff) {
    static final RetryParts NONE = new RetryParts(null, null, null);

    /** These parts on top of a base policy. */
    RetryPolicy over(RetryPolicy base) {
      return new RetryPolicy(
          maxErrors != null ? maxErrors : base.maxErrors(),
          window != null ? window : base.window(),
          backoff != null ? backoff : base.backoff());
    }
  }

  static Optional<Timeout> timeout(Node node, Problems problems, String where) {
    return Scalars.text(node, problems, "`timeout` " + where).flatMap(text -> {
      try {
        return Optional.of(Timeout.parse(text));
      } catch (IllegalArgumentException e) {
        problems.error(YamlFile.at(node), "`timeout` " + where + ": " + e.getMessage(),
            "use a percentile like `p95`, a duration like `30s`, or `0` for no timeout");
        return Optional.empty();
      }
    });
  }

  static RetryParts retry(Node node, Problems problems, String where) {
    Optional<MappingNode> mappingNode = Scalars.mapping(node, problems, "`retry` " + where);
    if (mappingNode.isEmpty()) {
      return RetryParts.NONE;
    }
    Mapping m = Mapping.of(mappingNode.get(), problems, "in `retry` " + where);
    m.rejectUnknown(RETRY_KEYS, problems, "in `retry` " + where);
    Integer maxErrors = m.get("max_errors")
        .flatMap(e -> Scalars.positiveInt(e.value(), problems, "`max_errors` " + where))
        .orElse(null);
    Duration window = m.get("window")
        .flatMap(e -> Scalars.duration(e.value(), problems, "`window` " + where, false))
        .orElse(null);
    Backoff backoff = m.get("backoff")
        .flatMap(e -> backoff(e.value(), problems, where))
        .orElse(null);
    return new RetryParts(maxErrors, window, backoff);
  }

  private static Optional<Backoff> backoff(Node node, Problems problems, String where) {
    if (node instanceof ScalarNode) {
      return Scalars.duration(node, problems, "`backoff` " + where, true).map(Backoff::fixed);
    }
    Optional<MappingNode> mappingNode = Scalars.mapping(node, problems, "`backoff` " + where);
    if (mappingNode.isEmpty()) {
      return Optional.empty();
    }
    Mapping m = Mapping.of(mappingNode.get(), problems, "in `backoff` " + where);
    m.rejectUnknown(BACKOFF_KEYS, problems, "in `backoff` " + where);
    int before = problems.all().size();
    if (!m.has("initial")) {
      problems.error(YamlFile.at(node), "`backoff` " + where + " needs `initial`",
          "for example {initial: 1s, max: 5m, multiplier: 2, jitter: 0.2}");
    }
    Optional<Duration> initial = m.get("initial")
        .flatMap(e -> Scalars.duration(e.value(), problems, "backoff `initial` " + where, true));
    Optional<Duration> max = m.get("max")
        .flatMap(e -> Scalars.duration(e.value(), problems, "backoff `max` " + where, true));
    Optional<Double> multiplier = m.get("multiplier")
        .flatMap(e -> Scalars.decimal(e.value(), problems, "backoff `multiplier` " + where));
    Optional<Double> jitter = m.get("jitter")
        .flatMap(e -> Scalars.decimal(e.value(), problems, "backoff `jitter` " + where));
    // Every rule broken is reported, not only the first, at the setting at fault.
    Backoff.broken(initial.orElse(null), max.orElse(null), multiplier.orElse(null),
        jitter.orElse(null)).forEach((setting, message) ->
            problems.error(m.get(setting).map(Mapping.Entry::valueAt).orElse(YamlFile.at(node)),
                message + " " + where));
    if (problems.all().size() > before) {
      return Optional.empty();
    }
    Duration cap = max.orElse(initial.get().compareTo(Duration.ofHours(1)) > 0 ? initial.get()
        : Duration.ofHours(1));
    return Optional.of(new Backoff(initial.get(), cap, multiplier.orElse(2.0),
        jitter.orElse(0.0)));
  }
}

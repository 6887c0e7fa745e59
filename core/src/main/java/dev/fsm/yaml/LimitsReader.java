package dev.fsm.yaml;

import dev.fsm.diagnostic.Problems;
import dev.fsm.model.BreakerPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;

/** Reads {@code concurrency:} (machine or state) and a machine's {@code breaker:}. */
final class LimitsReader {

  /** The highest cap accepted: a bigger one is a typo, not a limit. */
  static final int MAX_CONCURRENCY = 100_000;

  static final List<String> BREAKER_KEYS =
      List.of("errors", "min_attempts", "window", "cooldown");

  private LimitsReader() {}

  /** A cap of 1 to {@value #MAX_CONCURRENCY}. */
  static Optional<Integer> concurrency(Node node, Problems problems, String where) {
    String what = "`concurrency` " + where;
    return Scalars.text(node, problems, what).flatMap(t -> {
      String s = t.strip();
      boolean digits = !s.isEmpty() && s.length() <= 9 && s.chars().allMatch(Character::isDigit);
      int n = digits ? Integer.parseInt(s) : -1;
      if (n < 1 || n > MAX_CONCURRENCY) {
        problems.error(YamlFile.at(node), what + " must be a whole number from 1 to "
            + MAX_CONCURRENCY + ", found `" + t + "`", "for example `concurrency: 4`");
        return Optional.empty();
      }
      return Optional.of(n);
    });
  }

  /** {@code on} (the defaults), {@code off} (none: empty), or a mapping over the defaults. */
  static Optional<BreakerPolicy> breaker(Node node, Problems problems) {
    if (node instanceof ScalarNode) {
      Optional<String> word = Scalars.text(node, problems, "`breaker`");
      if (word.isEmpty()) {
        return Optional.empty();
      }
      switch (word.get().strip()) {
        case "on", "true":
          return Optional.of(BreakerPolicy.DEFAULT);
        case "off", "false":
          return Optional.empty();
        default:
          problems.error(YamlFile.at(node), "`breaker` must be `on`, `off` or a mapping, found `"
              + word.get() + "`", "for example {errors: 50%, min_attempts: 20, window: 1m,"
              + " cooldown: 30s}");
          return Optional.empty();
      }
    }
    Optional<MappingNode> mapping = Scalars.mapping(node, problems, "`breaker`");
    if (mapping.isEmpty()) {
      return Optional.empty();
    }
    Mapping m = Mapping.of(mapping.get(), problems, "in `breaker`");
    m.rejectUnknown(BREAKER_KEYS, problems, "in `breaker`");
    BreakerPolicy d = BreakerPolicy.DEFAULT;
    double share = m.get("errors").flatMap(e -> share(e.value(), problems)).orElse(d.errorShare());
    int min = m.get("min_attempts")
        .flatMap(e -> Scalars.positiveInt(e.value(), problems, "`min_attempts` in `breaker`"))
        .orElse(d.minAttempts());
    Duration window = m.get("window")
        .flatMap(e -> Scalars.duration(e.value(), problems, "`window` in `breaker`", false))
        .orElse(d.window());
    Duration cooldown = m.get("cooldown")
        .flatMap(e -> Scalars.duration(e.value(), problems, "`cooldown` in `breaker`", false))
        .orElse(d.cooldown());
    return Optional.of(new BreakerPolicy(share, min, window, cooldown));
  }

  /** A percentage above 0% and at most 100%, e.g. {@code 50%} or {@code 12.5%}. */
  private static Optional<Double> share(Node node, Problems problems) {
    return Scalars.text(node, problems, "`errors` in `breaker`").flatMap(t -> {
      String s = t.strip();
      double pct = -1;
      if (s.endsWith("%") && s.matches("\\d{1,3}(\\.\\d{1,6})?%")) {
        pct = Double.parseDouble(s.substring(0, s.length() - 1));
      }
      if (!(pct > 0 && pct <= 100)) {
        problems.error(YamlFile.at(node), "`errors` in `breaker` must be a percentage above 0%"
            + " and at most 100%, found `" + t + "`", "for example `errors: 50%`");
        return Optional.empty();
      }
      return Optional.of(pct / 100);
    });
  }
}

package dev.fsm.yaml;

import dev.fsm.diagnostic.Problems;
import dev.fsm.model.Durations;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

/**
 * Types scalar values from their raw text. SnakeYAML's YAML 1.1 resolver would read {@code on}
 * as a boolean and {@code 1.10} as {@code 1.1}; machine files mean what they say, so every value
 * is typed here by the field that holds it.
 */
final class Scalars {

  private static final Pattern DECIMAL = Pattern.compile("\\d{1,9}(\\.\\d{1,9})?|\\.\\d{1,9}");

  private Scalars() {}

  /** "a mapping", "a list", "nothing" or "`text`", for messages. */
  static String describe(Node node) {
    if (node instanceof MappingNode) {
      return "a mapping";
    } else if (node instanceof SequenceNode) {
      return "a list";
    } else if (isNull(node)) {
      return "nothing";
    }
    String value = ((ScalarNode) node).getValue();
    return value.length() > 40 ? "`" + value.substring(0, 37) + "...`" : "`" + value + "`";
  }

  /** True for an empty value or {@code ~}/{@code null}. */
  static boolean isNull(Node node) {
    return node instanceof ScalarNode s && s.getTag().equals(Tag.NULL);
  }

  /** The raw text of a scalar, or empty after reporting what was found instead. */
  static Optional<String> text(Node node, Problems problems, String what) {
    if (node instanceof ScalarNode s && !isNull(node)) {
      return Optional.of(s.getValue());
    }
    problems.error(YamlFile.at(node), what + " must be a value, found " + describe(node));
    return Optional.empty();
  }

  /** A positive whole number. */
  static Optional<Integer> positiveInt(Node node, Problems problems, String what) {
    return text(node, problems, what).flatMap(t -> {
      if (!smallWholeNumber(t.strip()) || Integer.parseInt(t.strip()) < 1) {
        problems.error(YamlFile.at(node), what + " must be a whole number of 1 or more, found `"
            + t + "`");
        return Optional.empty();
      }
      return Optional.of(Integer.parseInt(t.strip()));
    });
  }

  /** One to nine ASCII digits: fits an int, and runs per state, so no regex. */
  private static boolean smallWholeNumber(String t) {
    if (t.isEmpty() || t.length() > 9) {
      return false;
    }
    for (int i = 0; i < t.length(); i++) {
      if (t.charAt(i) < '0' || t.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  /** A non-negative decimal number. */
  static Optional<Double> decimal(Node node, Problems problems, String what) {
    return text(node, problems, what).flatMap(t -> {
      if (!DECIMAL.matcher(t.strip()).matches()) {
        problems.error(YamlFile.at(node), what + " must be a number, found `" + t + "`");
        return Optional.empty();
      }
      return Optional.of(Double.parseDouble(t.strip()));
    });
  }

  /** A duration such as {@code 30s} or {@code 1h30m}; zero only when {@code zeroAllowed}. */
  static Optional<Duration> duration(Node node, Problems problems, String what,
      boolean zeroAllowed) {
    return text(node, problems, what).flatMap(t -> {
      try {
        Duration d = Durations.parse(t);
        if (d.isZero() && !zeroAllowed) {
          problems.error(YamlFile.at(node), what + " must be longer than 0");
          return Optional.empty();
        }
        return Optional.of(d);
      } catch (IllegalArgumentException e) {
        problems.error(YamlFile.at(node), what + ": " + e.getMessage());
        return Optional.empty();
      }
    });
  }

  /** The mapping node, or empty after reporting what was found instead. */
  static Optional<MappingNode> mapping(Node node, Problems problems, String what) {
    if (node instanceof MappingNode m) {
      return Optional.of(m);
    }
    problems.error(YamlFile.at(node), what + " must be a mapping, found " + describe(node));
    return Optional.empty();
  }
}

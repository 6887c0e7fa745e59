package dev.fsm.yaml;

import dev.fsm.diagnostic.DidYouMean;
import dev.fsm.diagnostic.Problems;
import dev.fsm.model.Action;
import dev.fsm.model.BuiltinAction;
import dev.fsm.model.Durations;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/** Reads a state's {@code run:} value: a command line, an argv list, a built-in or a Java class. */
final class ActionReader {

  static final String JAVA_PREFIX = "java:";
  private static final Pattern CLASS_NAME =
      Pattern.compile("[A-Za-z_$][A-Za-z0-9_$]*(\\.[A-Za-z_$][A-Za-z0-9_$]*)*");

  private ActionReader() {}

  static Optional<Action> read(Node node, Problems problems, String state) {
    String where = "`run` of state `" + state + "`";
    List<String> argv;
    String text;
    if (node instanceof SequenceNode list) {
      argv = new ArrayList<>();
      for (Node item : list.getValue()) {
        if (!(item instanceof ScalarNode s) || Scalars.isNull(item)) {
          problems.error(YamlFile.at(item), "each word of " + where + " must be a value, found "
              + Scalars.describe(item));
          return Optional.empty();
        }
        argv.add(s.getValue());
      }
      text = String.join(" ", argv);
    } else {
      Optional<String> line = Scalars.text(node, problems, where);
      if (line.isEmpty()) {
        return Optional.empty();
      }
      text = line.get().strip();
      try {
        argv = ShellWords.split(text);
      } catch (IllegalArgumentException e) {
        problems.error(YamlFile.at(node), where + " cannot be split into words: " + e.getMessage(),
            "close the quote, or write `run:` as a list of words");
        return Optional.empty();
      }
    }
    if (argv.isEmpty() || argv.get(0).isBlank()) {
      problems.error(YamlFile.at(node), where + " is empty", "name the program to run");
      return Optional.empty();
    }
    String first = argv.get(0);
    if (first.startsWith(BuiltinAction.PREFIX)) {
      return builtin(first.substring(BuiltinAction.PREFIX.length()), argv.subList(1, argv.size()),
          text, node, problems, where);
    }
    if (first.startsWith(JAVA_PREFIX)) {
      String className = first.substring(JAVA_PREFIX.length());
      if (!CLASS_NAME.matcher(className).matches() || argv.size() > 1) {
        problems.error(YamlFile.at(node), where + ": `" + text + "` is not a Java class name",
            "write `java:com.example.ChargeCard`");
        return Optional.empty();
      }
      return Optional.of(new Action.JavaClass(className, text));
    }
    return Optional.of(new Action.Program(argv, text));
  }

  private static Optional<Action> builtin(String name, List<String> args, String text, Node node,
      Problems problems, String where) {
    Optional<BuiltinAction> builtin = BuiltinAction.named(name);
    if (builtin.isEmpty()) {
      String hint = DidYouMean.hint(name, BuiltinAction.words());
      problems.error(YamlFile.at(node), where + ": unknown built-in `" + name + "`",
          hint != null ? hint : "built-ins: " + String.join(", ", BuiltinAction.words()));
      return Optional.empty();
    }
    BuiltinAction b = builtin.get();
    if (!b.accepts(args.size())) {
      problems.error(YamlFile.at(node), where + ": `" + text + "` has the wrong arguments",
          "write `" + b.usage() + "`");
      return Optional.empty();
    }
    if (b == BuiltinAction.SLEEP) {
      try {
        Durations.parse(args.get(0));
      } catch (IllegalArgumentException e) {
        problems.error(YamlFile.at(node), where + ": " + e.getMessage());
        return Optional.empty();
      }
    }
    return Optional.of(new Action.Builtin(b, args, text));
  }
}

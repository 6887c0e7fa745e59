package dev.fsm.cli;

import dev.fsm.cli.common.GlobalOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A command line in the strict form {@link FastPath} runs: the global options, one verb, its
 * plain words and its value options, each option at most once and every value plain text.
 * Anything else, including forms picocli accepts, parses to null and goes to the full parser.
 */
final class FastLine {

  /** The options a verb accepts after its name: those taking a value, and flags. */
  private record Options(Set<String> values, Set<String> flags) {}

  /** The verbs the fast path runs, with their options. */
  private static final Map<String, Options> VERBS = Map.of(
      "validate", new Options(Set.of(), Set.of()),
      "send", new Options(Set.of("--until", "--reason"), Set.of()),
      "show", new Options(Set.of(), Set.of()),
      "start", new Options(Set.of("--id", "--context", "--at"), Set.of()),
      "stats", new Options(Set.of(), Set.of()),
      "history", new Options(Set.of(), Set.of()),
      "signal", new Options(Set.of("--context"), Set.of()),
      "ls", new Options(Set.of("--limit", "--machine", "--state", "--status", "--sort"),
          Set.of("--reverse", "-q", "--quiet")));

  final GlobalOptions global;
  final String verb;
  final List<String> words;
  /** The verb's own options, by name; a flag given has the value "true". */
  final Map<String, String> options;

  private FastLine(GlobalOptions global, String verb, List<String> words,
      Map<String, String> options) {
    this.global = global;
    this.verb = verb;
    this.words = words;
    this.options = options;
  }

  /** The parsed line, or null when it is not in the strict form. */
  static FastLine parse(String[] args, Map<String, String> env) {
    return parse(args, env, null);
  }

  /** As {@link #parse(String[], Map)}, with {@code err} for the notices of a verb that waits. */
  static FastLine parse(String[] args, Map<String, String> env, PrintWriter err) {
    String store = null;
    Path machines = null;
    GlobalOptions.Output output = GlobalOptions.Output.text;
    boolean noColor = false;
    boolean verbose = false;
    String verb = null;
    List<String> words = new ArrayList<>();
    Map<String, String> options = new HashMap<>();
    // Every option seen, so a repeat declines: picocli rejects repeats, flags included.
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      String name = arg.startsWith("--") && arg.contains("=") ? arg.substring(0, arg.indexOf('='))
          : arg;
      String inline = name.equals(arg) ? null : arg.substring(name.length() + 1);
      boolean verbOption = verb != null && VERBS.get(verb).values().contains(name);
      if (verb != null && VERBS.get(verb).flags().contains(name)) {
        // -q and --quiet are one option: picocli rejects giving both, as a repeat.
        if (inline != null || !seen.add(name.equals("-q") ? "--quiet" : name)) {
          return null;
        }
        options.put(name.equals("-q") ? "--quiet" : name, "true");
        continue;
      }
      if (!isGlobal(name) && !verbOption) {
        if (verb == null && VERBS.containsKey(arg)) {
          verb = arg;
        } else if (verb != null && plain(arg)) {
          words.add(arg);
        } else {
          return null;
        }
        continue;
      }
      if (!seen.add(name.equals("-v") ? "--verbose" : name)) {
        return null;
      }
      if (name.equals("--no-color") || name.equals("-v") || name.equals("--verbose")) {
        if (inline != null) {
          return null;
        }
        if (name.equals("--no-color")) {
          noColor = true;
        } else {
          verbose = true;
        }
        continue;
      }
      String value = inline != null ? inline : (i + 1 < args.length ? args[++i] : null);
      // start's --context reads @FILE itself (picocli's own @-files are off).
      if (!plain(value) && !(name.equals("--context") && contextFile(value))) {
        return null;
      }
      switch (name) {
        case "--store" -> store = value;
        case "--machines" -> machines = Path.of(value);
        case "--output" -> {
          if (!(value.equals("text") || value.equals("json"))) {
            return null;
          }
          output = GlobalOptions.Output.valueOf(value);
        }
        default -> options.put(name, value);
      }
    }
    return verb == null ? null : new FastLine(GlobalOptions.given(env, err, store, machines,
        output, noColor, verbose), verb, words, options);
  }

  private static boolean isGlobal(String name) {
    return switch (name) {
      case "--store", "--machines", "--output", "--no-color", "-v", "--verbose" -> true;
      default -> false;
    };
  }

  /** A {@code --context} value naming a file: {@code @} and a path. */
  private static boolean contextFile(String value) {
    return value != null && value.length() > 1 && value.startsWith("@")
        && value.indexOf('\0') < 0;
  }

  /**
   * A value picocli would take as plain text: not an option, an argument file ({@code @file}),
   * a name of a verb the fast path ran first (as picocli may read it so) or anything a path
   * cannot hold.
   */
  private static boolean plain(String value) {
    return value != null && !value.isEmpty() && !value.startsWith("-") && !value.startsWith("@")
        && !value.equals("validate") && !value.equals("send") && !value.equals("help")
        && value.indexOf('\0') < 0;
  }
}

package dev.fsm.cli.complete;

import dev.fsm.task.Command;
import dev.fsm.task.ShownStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * What may come next on an fsm command line: verbs and options from the command model, values
 * from the store and the machines folder. One engine serves the shell and the bash/zsh scripts,
 * and it completes positional parameters, which picocli's own completers never do.
 */
public final class Completions {

  /** Labels that list their choices, such as {@code svg|png|dot} or {@code LR|TB}. */
  private static final Pattern CHOICES =
      Pattern.compile("[a-z]+(\\|[a-z]+)+|[A-Z]{2}(\\|[A-Z]{2})+");
  private static final Set<String> FILE_LABELS =
      Set.of("PATH", "DIR", "OUT", "FILE", "FILE.jsonl", "JSON|@FILE", "PATH|URL");

  private final CommandSpec root;
  private final Function<Map<String, String>, Values> values;

  /**
   * @param root the {@code fsm} command
   * @param values the values to offer, given the options typed so far (for {@code --store} and
   *     {@code --machines}); called only when a word needs them
   */
  public Completions(CommandSpec root, Function<Map<String, String>, Values> values) {
    this.root = root;
    this.values = values;
  }

  /** What fits {@code word}, typed after the complete words {@code typed} (without "fsm"). */
  public Suggestions complete(List<String> typed, String word) {
    Line line = Line.read(root, typed);
    if (line.pending != null) {
      return optionValues(line, line.pending, word, "");
    }
    if (!line.endOfOptions && word.startsWith("-")) {
      int eq = word.indexOf('=');
      if (eq > 0) {
        OptionSpec o = line.spec.findOption(word.substring(0, eq));
        return o == null ? Suggestions.of(List.of())
            : optionValues(line, o, word.substring(eq + 1), word.substring(0, eq + 1));
      }
      return Suggestions.of(optionNames(line.spec, word));
    }
    List<Suggestion> found = new ArrayList<>();
    // `help VERB` names a verb of fsm itself.
    CommandSpec verbs = line.spec.userObject() instanceof CommandLine.HelpCommand ? root
        : line.spec;
    if (line.positionals.isEmpty()) {
      for (CommandLine sub : verbs.subcommands().values()) {
        CommandSpec s = sub.getCommandSpec();
        if (!s.usageMessage().hidden() && s.name().startsWith(word)
            && found.stream().noneMatch(f -> f.value().equals(s.name()))) {
          found.add(new Suggestion(s.name(), first(s.usageMessage().header())));
        }
      }
    }
    PositionalParamSpec p = positionalAt(line.spec, line.positionals.size());
    if (p == null || line.spec.userObject() instanceof CommandLine.HelpCommand) {
      return Suggestions.of(found);
    }
    Suggestions more = argValues(line, p, positionalLabel(line, p), word, "");
    found.addAll(more.values());
    return new Suggestions(found, more.files());
  }

  private Suggestions optionValues(Line line, OptionSpec o, String word, String prefix) {
    if (o.longestName().equals("--id")) {
      return Suggestions.of(List.of());
    }
    return argValues(line, o, o.paramLabel(), word, prefix);
  }

  private Suggestions argValues(Line line, ArgSpec arg, String label, String word,
      String prefix) {
    if (FILE_LABELS.contains(label)) {
      return Suggestions.fileNames();
    }
    List<String> words = switch (label) {
      case "ID" -> lookup(line).taskIds(word);
      case "MACHINE", "MACHINE|FILE", "M" -> lookup(line).machines();
      case "S" -> lookup(line).states(line.options.get("--machine"));
      case "STATE" -> line.options.containsKey("--machine")
          ? lookup(line).states(line.options.get("--machine"))
          : line.positionals.isEmpty() ? List.of() : lookup(line).taskStates(
              line.positionals.get(0));
      case "X" -> Arrays.stream(ShownStatus.values()).map(ShownStatus::word).toList();
      case "COMMAND" -> Command.words();
      case "EVENT" -> line.positionals.isEmpty() ? List.of()
          : lookup(line).events(line.positionals.get(0));
      default -> choices(arg, label);
    };
    List<Suggestion> found = new ArrayList<>();
    for (String w : words) {
      if (w.startsWith(word)) {
        found.add(new Suggestion(prefix + w, ""));
      }
    }
    boolean files = found.isEmpty() && label.equals("MACHINE|FILE");
    return new Suggestions(found, files);
  }

  private Values lookup(Line line) {
    return values.apply(line.options);
  }

  private static List<String> choices(ArgSpec arg, String label) {
    if (CHOICES.matcher(label).matches()) {
      return List.of(label.split("\\|"));
    }
    List<String> found = new ArrayList<>();
    if (arg.completionCandidates() != null) {
      arg.completionCandidates().forEach(found::add);
    }
    return found;
  }

  /** {@code send [ID] COMMAND}: a command alone when the tasks are chosen by --machine. */
  private static String positionalLabel(Line line, PositionalParamSpec p) {
    if (!p.paramLabel().equals("[ID] COMMAND")) {
      return p.paramLabel();
    }
    return line.options.containsKey("--machine") || !line.positionals.isEmpty() ? "COMMAND"
        : "ID";
  }

  private static List<Suggestion> optionNames(CommandSpec spec, String word) {
    List<Suggestion> found = new ArrayList<>();
    for (OptionSpec o : spec.options()) {
      if (!o.hidden() && o.longestName().startsWith(word)) {
        found.add(new Suggestion(o.longestName(), first(o.description())));
      }
    }
    return found;
  }

  private static PositionalParamSpec positionalAt(CommandSpec spec, int index) {
    for (PositionalParamSpec p : spec.positionalParameters()) {
      if (p.index().contains(index)) {
        return p;
      }
    }
    return null;
  }

  private static String first(String[] lines) {
    return lines.length == 0 ? "" : lines[0];
  }

  /** The words typed so far, read against the command model. */
  private static final class Line {
    CommandSpec spec;
    final List<String> positionals = new ArrayList<>();
    final Map<String, String> options = new HashMap<>();
    boolean endOfOptions;
    OptionSpec pending;

    static Line read(CommandSpec root, List<String> typed) {
      Line line = new Line();
      line.spec = root;
      for (String w : typed) {
        line.take(w);
      }
      return line;
    }

    private void take(String w) {
      if (pending != null) {
        options.put(pending.longestName(), w);
        pending = null;
      } else if (!endOfOptions && w.equals("--")) {
        endOfOptions = true;
      } else if (!endOfOptions && w.startsWith("-") && w.length() > 1) {
        int eq = w.indexOf('=');
        OptionSpec o = spec.findOption(eq < 0 ? w : w.substring(0, eq));
        if (o != null && o.arity().max() > 0 && eq < 0) {
          pending = o;
        } else if (o != null) {
          options.put(o.longestName(), eq < 0 ? "" : w.substring(eq + 1));
        }
      } else if (positionals.isEmpty() && spec.subcommands().containsKey(w)) {
        spec = spec.subcommands().get(w).getCommandSpec();
      } else {
        positionals.add(w);
      }
    }
  }
}

package dev.fsm.cli.common;

import dev.fsm.diagnostic.DidYouMean;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * A verb that does not exist, and the one the user most likely meant: the nearest by edit
 * distance (a swap of two neighbouring letters counts as one edit, so {@code sned} is one edit
 * from {@code send}), else the only verb that starts with what was typed.
 */
final class UnknownVerb {

  private UnknownVerb() {}

  /** The unknown verb {@code e} is about, or empty when it is about something else. */
  static Optional<String> of(ParameterException e) {
    CommandLine cmd = e.getCommandLine();
    // picocli's `help VERB` names an unknown verb this way, on the command that has the verbs.
    if (e.getMessage() != null && e.getMessage().startsWith("Unknown subcommand '")
        && e.getValue() != null && !e.getValue().isEmpty()) {
      return Optional.of(e.getValue());
    }
    if (!(e instanceof UnmatchedArgumentException unmatched) || cmd.getSubcommands().isEmpty()
        || unmatched.getUnmatched().isEmpty()) {
      return Optional.empty();
    }
    String first = unmatched.getUnmatched().get(0);
    return first.startsWith("-") || first.isEmpty() ? Optional.empty() : Optional.of(first);
  }

  /** The verbs of {@code cmd} a user may type: not hidden ones, plus {@code extra}. */
  static List<String> verbs(CommandLine cmd, List<String> extra) {
    List<String> verbs = new ArrayList<>();
    cmd.getSubcommands().forEach((name, sub) -> {
      if (!sub.getCommandSpec().usageMessage().hidden()) {
        verbs.add(name);
      }
    });
    verbs.addAll(extra);
    return verbs;
  }

  /** The verb meant by {@code typed}, if one is close enough to say so. */
  static Optional<String> meant(String typed, List<String> verbs) {
    Optional<String> near = DidYouMean.closest(typed, verbs);
    if (near.isPresent() || typed.length() < 2) {
      return near;
    }
    String prefix = typed.toLowerCase(Locale.ROOT);
    List<String> starting = verbs.stream().filter(v -> v.startsWith(prefix)).toList();
    return starting.size() == 1 ? Optional.of(starting.get(0)) : Optional.empty();
  }
}

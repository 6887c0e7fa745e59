package dev.fsm.cli.complete;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Writes the bash and zsh completion scripts from the command model. Verbs and options are
 * written into the script, so completing them costs no JVM start; everything else (task ids,
 * machines, states, events, subcommands) is asked of {@code fsm __complete} at each TAB, because
 * a script written today cannot know tomorrow's tasks.
 */
public final class CompletionScript {

  private CompletionScript() {}

  /** The script for bash. */
  public static String bash(CommandSpec root) {
    StringBuilder s = new StringBuilder();
    s.append("""
        # bash completion for fsm. Generated from fsm's command model by `fsm completion bash`;
        # do not edit. Install: source it from ~/.bashrc, or copy it to
        # ~/.local/share/bash-completion/completions/fsm.
        #
        # Verbs and options are listed here. Task ids, machines, states, events and commands
        # come from `fsm __complete`, which reads the store when TAB is pressed.

        _fsm_ask() {
          local IFS=$'\\n'
          COMPREPLY=($("${COMP_WORDS[0]}" __complete -- "${COMP_WORDS[@]:1:COMP_CWORD}" \\
            2>/dev/null))
        }

        _fsm() {
          local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} verb="" i
          for ((i = 1; i < COMP_CWORD; i++)); do
            case ${COMP_WORDS[i]} in
        """);
    s.append("      ").append(String.join("|", valueOptions(root)))
        .append(") ((i++)) ;;\n");
    s.append("""
              -*) ;;
              *) verb=${COMP_WORDS[i]}; break ;;
            esac
          done
          if [[ $prev == = || ( $prev == -* && " $(_fsm_value_options) " == *" $prev "* ) ]]
          then
            _fsm_ask; return
          fi
          if [[ $cur != -* && -z $verb ]]; then
        """);
    s.append("    COMPREPLY=($(compgen -W \"").append(String.join(" ", verbs(root)))
        .append("\" -- \"$cur\")); return\n  fi\n");
    s.append("  if [[ $cur == -* ]]; then\n    case $verb in\n");
    for (CommandLine verb : root.subcommands().values()) {
      CommandSpec spec = verb.getCommandSpec();
      if (spec.usageMessage().hidden() || !spec.subcommands().isEmpty()) {
        continue;
      }
      s.append("      ").append(spec.name()).append(") COMPREPLY=($(compgen -W \"")
          .append(String.join(" ", optionNames(spec))).append("\" -- \"$cur\")); return ;;\n");
    }
    s.append("      \"\") COMPREPLY=($(compgen -W \"").append(String.join(" ",
        optionNames(root))).append("\" -- \"$cur\")); return ;;\n");
    s.append("""
            esac
          fi
          _fsm_ask
        }

        """);
    s.append("_fsm_value_options() {\n  echo \"")
        .append(String.join(" ", allValueOptions(root))).append("\"\n}\n\n");
    s.append("complete -o default -F _fsm fsm\n");
    return s.toString();
  }

  /** The script for zsh: the bash script through zsh's bash completion emulation. */
  public static String zsh(CommandSpec root) {
    return "# zsh completion for fsm. Generated from fsm's command model by `fsm completion zsh`;\n"
        + "# do not edit. Install: source it from ~/.zshrc after `autoload -Uz compinit &&\n"
        + "# compinit` (it defines a bash-style function, so it is not an $fpath file).\n\n"
        + "autoload -U +X bashcompinit && bashcompinit\n\n"
        + bash(root).lines().dropWhile(l -> l.startsWith("#") || l.isEmpty())
            .reduce(new StringBuilder(), (b, l) -> b.append(l).append('\n'),
                StringBuilder::append);
  }

  private static List<String> verbs(CommandSpec root) {
    List<String> names = new ArrayList<>();
    for (CommandLine verb : root.subcommands().values()) {
      CommandSpec spec = verb.getCommandSpec();
      if (!spec.usageMessage().hidden() && !names.contains(spec.name())) {
        names.add(spec.name());
      }
    }
    return names;
  }

  private static List<String> optionNames(CommandSpec spec) {
    List<String> names = new ArrayList<>();
    for (OptionSpec o : spec.options()) {
      if (!o.hidden()) {
        names.addAll(List.of(o.names()));
      }
    }
    return names;
  }

  /** The root's options that take a value, which the verb search must step over. */
  private static List<String> valueOptions(CommandSpec root) {
    List<String> names = new ArrayList<>();
    for (OptionSpec o : root.options()) {
      if (o.arity().max() > 0) {
        names.addAll(List.of(o.names()));
      }
    }
    return names;
  }

  /** Every option, of any verb, that takes a value: after one, fsm says what may follow. */
  private static List<String> allValueOptions(CommandSpec root) {
    List<String> names = new ArrayList<>();
    collect(root, names);
    return names;
  }

  private static void collect(CommandSpec spec, List<String> names) {
    for (OptionSpec o : spec.options()) {
      if (o.arity().max() > 0) {
        for (String n : o.names()) {
          if (!names.contains(n)) {
            names.add(n);
          }
        }
      }
    }
    for (CommandLine sub : spec.subcommands().values()) {
      collect(sub.getCommandSpec(), names);
    }
  }
}

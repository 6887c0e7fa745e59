package dev.fsm.cli;

import dev.fsm.cli.common.ReadsEveryVerb;
import java.util.Arrays;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Which verbs a command line's tree needs: the one it names, found by stepping over the root's
 * options as picocli would. Every verb when it names none or one not known (the message suggests
 * the nearest), asks for help or the version, names a verb that reads every verb ({@code help},
 * completion: see {@link ReadsEveryVerb}), or is spelt in a way this does not follow (clustered
 * short options, an option whose value is optional, {@code --}): the whole tree parses every
 * line correctly, so any doubt builds it.
 */
final class OneVerb {

  /** Every verb: for help, the shell, completion and the docs. */
  static final OneVerb ALL = new OneVerb(null);

  private final String[] args;

  private OneVerb(String[] args) {
    this.args = args;
  }

  /** The verbs the command line {@code args} needs. */
  static OneVerb of(String[] args) {
    return new OneVerb(args.clone());
  }

  /** The verb classes to add to {@code root}, a root command with no verbs yet. */
  List<Class<?>> pick(CommandSpec root) {
    String name = args == null ? null : nameIn(root);
    if (name == null) {
      return Fsm.VERBS;
    }
    for (Class<?> verb : Fsm.VERBS) {
      Command command = verb.getAnnotation(Command.class);
      if (command.name().equals(name) || Arrays.asList(command.aliases()).contains(name)) {
        // `fsm help` lists the verbs, completion reads them.
        boolean readsEveryVerb = verb == HelpCommand.class
            || ReadsEveryVerb.class.isAssignableFrom(verb);
        return readsEveryVerb ? Fsm.VERBS : List.of(verb);
      }
    }
    return Fsm.VERBS;
  }

  /** The first word that is not a root option or its value; null when in doubt. */
  private String nameIn(CommandSpec root) {
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("-") || arg.equals("-")) {
        return arg;
      }
      int equals = arg.indexOf('=');
      OptionSpec option = root.findOption(equals < 0 ? arg : arg.substring(0, equals));
      if (option == null || option.usageHelp() || option.versionHelp()
          || option.arity().min() != option.arity().max()
          || (equals >= 0 && option.arity().max() == 0)) {
        return null;
      }
      if (equals < 0) {
        i += option.arity().min();
      }
    }
    return null;
  }
}

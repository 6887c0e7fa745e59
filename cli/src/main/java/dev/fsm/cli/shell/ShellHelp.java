package dev.fsm.cli.shell;

import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Help;

/** The shell's own {@code help}: the verbs as typed there, without {@code fsm}, and its words. */
final class ShellHelp {

  private ShellHelp() {}

  /** Prints the shell's usage, the verbs of {@code root} among it. */
  static void print(CommandLine root, PrintWriter out) {
    Help help = new Help(root.getCommandSpec(), root.getColorScheme());
    Map<String, Help> verbs = new LinkedHashMap<>(help.subcommands());
    verbs.remove("shell");
    out.println("Type a verb and its options without `fsm` in front, e.g. `ls --status fault`,");
    out.println("`show ID`, `send ID pause`.");
    out.println();
    out.println("Verbs:");
    out.print(help.commandList(verbs));
    out.println();
    out.println("Options every verb takes (those given to `fsm shell` hold for every line):");
    out.print(help.optionListExcludingGroups(root.getCommandSpec().options().stream()
        .filter(o -> !o.hidden() && !o.usageHelp() && !o.versionHelp()).toList()));
    out.println();
    out.println("Shell commands:");
    out.println("  help [VERB]  This help, or a verb's options and examples: `help ls`.");
    out.println("  exit, quit   Leave the shell; Ctrl-D does too.");
    out.println();
    out.println("TAB completes verbs, options, machines, task ids, states, events and commands;");
    out.println("Up and Down recall earlier lines; Ctrl-C stops `watch` and `tail`, or clears the");
    out.println("line.");
  }
}

package dev.fsm.cli.shell;

import dev.fsm.cli.common.CommandTree;
import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.LiveView;
import dev.fsm.cli.common.StopSignal;
import dev.fsm.cli.help.HelpLayout;
import dev.fsm.yaml.ShellWords;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/** Runs one line typed in the shell as an fsm command line, in this process. */
final class ShellLine {

  /** What the shell does after a line. */
  enum Next { GO_ON, LEAVE }

  private ShellLine() {}

  /** The words of a line, or null (with the reason printed) when its quotes do not close. */
  static List<String> words(String line, PrintWriter err) {
    try {
      return ShellWords.split(line.strip());
    } catch (IllegalArgumentException e) {
      err.println("fsm: " + e.getMessage());
      return null;
    }
  }

  /** True for the words that end the shell. */
  static boolean leaves(List<String> words) {
    return words.size() == 1 && (words.get(0).equals("exit") || words.get(0).equals("quit"));
  }

  /** Runs the words as a command and returns its exit status. */
  static int run(CommandTree tree, List<String> words, Map<String, String> env, PrintWriter out,
      PrintWriter err, StopSignal stop) {
    if (!words.isEmpty() && words.get(0).equals("shell")) {
      err.println("fsm: already in the shell; type a verb such as `ls`, or `help`");
      return ExitCodes.FAILED;
    }
    CommandLine cmd = tree.build(out, err, env);
    if (words.equals(List.of("help")) || words.equals(List.of("--help"))
        || words.equals(List.of("-h"))) {
      ShellHelp.print(cmd, out);
      out.flush();
      return ExitCodes.OK;
    }
    cmd.setParameterExceptionHandler(new ExitCodes.OnBadArguments(true));
    HelpLayout.pointGlobalOptionsAt(cmd, "`help`");
    for (CommandLine verb : cmd.getSubcommands().values()) {
      if (verb.getCommand() instanceof LiveView view) {
        view.stopOn(stop);
      }
    }
    int status = cmd.execute(words.toArray(String[]::new));
    out.flush();
    err.flush();
    return status;
  }
}

package dev.fsm.cli.shell;

import dev.fsm.cli.common.CommandTree;
import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.StopSignal;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/**
 * The shell reading commands from a pipe or file: no prompt, no terminal, no escape codes; lines
 * that are blank or start with {@code #} are skipped. Ends with the status of the last failed
 * command, so a script of commands fails like the commands did.
 */
final class PipedShell {

  private PipedShell() {}

  static int run(BufferedReader in, CommandTree tree, Map<String, String> env, PrintWriter out,
      PrintWriter err) throws IOException {
    int failed = ExitCodes.OK;
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.isBlank() || line.strip().startsWith("#")) {
        continue;
      }
      List<String> words = ShellLine.words(line, err);
      if (words == null) {
        failed = ExitCodes.USAGE;
        continue;
      }
      if (ShellLine.leaves(words)) {
        break;
      }
      int status = ShellLine.run(tree, words, env, out, err, new StopSignal());
      if (status != ExitCodes.OK) {
        failed = status;
      }
    }
    return failed;
  }
}

package dev.fsm.cli.shell;

import dev.fsm.cli.common.CommandTree;
import dev.fsm.cli.common.StopSignal;
import dev.fsm.cli.complete.Completions;
import dev.fsm.cli.complete.StoreValues;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Terminal;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStyle;
import org.jline.utils.Signals;

/**
 * The shell on a terminal: a line editor with completion and history that runs each line as an
 * fsm command in this process. Ctrl-C clears the line, or stops a running {@code watch} or
 * {@code tail}; it never ends the shell.
 */
public final class InteractiveShell {

  private final CommandTree tree;
  private final Terminal terminal;
  private final Map<String, String> env;
  private final Path history;
  private final boolean color;

  /**
   * @param tree builds the command line of each typed line
   * @param env the environment each command sees (store and machines folder already fixed)
   * @param history the file that keeps typed lines between sessions
   * @param color whether the prompt may be coloured
   */
  public InteractiveShell(CommandTree tree, Terminal terminal, Map<String, String> env,
      Path history, boolean color) {
    this.tree = tree;
    this.terminal = terminal;
    this.env = env;
    this.history = history;
    this.color = color;
  }

  /** Reads and runs lines until {@code exit} or Ctrl-D; returns 0. */
  public int run() {
    PrintWriter none = new PrintWriter(Writer.nullWriter());
    Completions completions = new Completions(tree.build(none, none, env).getCommandSpec(),
        typed -> StoreValues.of(tree, env, typed));
    LineReader reader = LineReaderBuilder.builder().appName("fsm").terminal(terminal)
        .completer(new ShellCompleter(completions)).parser(new DefaultParser())
        .variable(LineReader.HISTORY_FILE, history)
        .option(LineReader.Option.HISTORY_IGNORE_DUPS, true)
        .option(LineReader.Option.HISTORY_IGNORE_SPACE, true)
        .build();
    makeHistoryFolder();
    PrintWriter out = terminal.writer();
    out.println("fsm shell: type `help` for the verbs, TAB to complete, `exit` or Ctrl-D to"
        + " leave.");
    // Between lines Ctrl-C must not end the JVM; while a command runs it stops live views.
    terminal.handle(Terminal.Signal.INT, s -> { });
    String prompt = color
        ? new AttributedString("fsm> ", AttributedStyle.BOLD.foreground(AttributedStyle.CYAN))
            .toAnsi(terminal)
        : "fsm> ";
    try {
      while (true) {
        String line;
        try {
          line = reader.readLine(prompt);
        } catch (UserInterruptException e) {
          continue;
        } catch (EndOfFileException e) {
          break;
        }
        List<String> words = ShellLine.words(line, out);
        if (words == null || words.isEmpty()) {
          continue;
        }
        if (ShellLine.leaves(words)) {
          break;
        }
        runCommand(words, out);
      }
    } finally {
      saveHistory(reader);
    }
    return 0;
  }

  private void runCommand(List<String> words, PrintWriter out) {
    StopSignal stop = new StopSignal();
    terminal.handle(Terminal.Signal.INT, s -> stop.fire());
    try {
      ShellLine.run(tree, words, sized(), out, out, stop);
    } finally {
      terminal.handle(Terminal.Signal.INT, s -> { });
      // `run` installs its own SIGINT handler; take the signal back for the line editor.
      if (terminal.getClass().getName().contains("Sys")) {
        Signals.register("INT", () -> terminal.raise(Terminal.Signal.INT));
      }
    }
  }

  /** The environment with the terminal's size now, so tables fit it. */
  private Map<String, String> sized() {
    Map<String, String> now = new HashMap<>(env);
    if (terminal.getWidth() > 0) {
      now.put("COLUMNS", Integer.toString(terminal.getWidth()));
    }
    if (terminal.getHeight() > 0) {
      now.put("LINES", Integer.toString(terminal.getHeight()));
    }
    return now;
  }

  private void makeHistoryFolder() {
    try {
      Files.createDirectories(history.toAbsolutePath().getParent());
    } catch (IOException e) {
      terminal.writer().println("fsm: cannot keep history in " + history + ": " + e.getMessage());
    }
  }

  private static void saveHistory(LineReader reader) {
    try {
      reader.getHistory().save();
    } catch (IOException e) {
      // History is a convenience; losing the last lines must not turn leaving into an error.
    }
  }
}

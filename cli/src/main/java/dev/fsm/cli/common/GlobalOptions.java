package dev.fsm.cli.common;

import dev.fsm.cli.terminal.TerminalWidth;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalInt;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The options every verb accepts, before or after the verb name. One instance per command line,
 * so nothing leaks between commands run in the same process (the shell).
 */
public final class GlobalOptions {

  /** How data is printed. */
  public enum Output { text, json }

  private final Map<String, String> env;
  private final PrintWriter err;

  @Option(names = "--store", scope = ScopeType.INHERIT, paramLabel = "PATH|URL",
      description = "Where tasks are stored: a folder (default: .fsm/ here, or $FSM_STORE) or"
          + " postgresql://[USER@]HOST[:PORT]/DATABASE[?schema=NAME].")
  String store;

  @Option(names = "--machines", scope = ScopeType.INHERIT, paramLabel = "DIR",
      description = "Folder of machine files (default: machines/, or $FSM_MACHINES).")
  Path machines;

  @Option(names = "--output", scope = ScopeType.INHERIT, paramLabel = "text|json",
      description = "Print data as text (default) or JSON.")
  Output output = Output.text;

  @Option(names = "--no-color", scope = ScopeType.INHERIT,
      description = "No colours (also when NO_COLOR is set or output is not a terminal).")
  boolean noColor;

  @Option(names = {"-v", "--verbose"}, scope = ScopeType.INHERIT,
      description = "Say more; show stack traces of internal errors.")
  boolean verbose;

  /**
   * The global options of the command line {@code spec} belongs to: the root command's mixin.
   * Verbs read them here rather than through their parent command, so no verb depends on the
   * class that lists the verbs; each command line has its own root, so nothing leaks between
   * command lines run in one process.
   */
  public static GlobalOptions of(CommandSpec spec) {
    for (CommandSpec mixin : spec.root().mixins().values()) {
      if (mixin.userObject() instanceof GlobalOptions global) {
        return global;
      }
    }
    throw new IllegalStateException("command `" + spec.root().qualifiedName()
        + "` has no global options");
  }

  /** Options for picocli to fill in from a command line run in {@code env}. */
  public GlobalOptions(Map<String, String> env, PrintWriter err) {
    this.env = env;
    this.err = err;
  }

  /**
   * Options the fast path read itself, without picocli (null or false where not given); its
   * notices are not printed.
   */
  public static GlobalOptions given(Map<String, String> env, String store, Path machines,
      Output output, boolean noColor, boolean verbose) {
    return given(env, null, store, machines, output, noColor, verbose);
  }

  /** As the other {@code given}, printing notices to {@code err} unless it is null. */
  public static GlobalOptions given(Map<String, String> env, PrintWriter err, String store,
      Path machines, Output output, boolean noColor, boolean verbose) {
    GlobalOptions global = new GlobalOptions(env,
        err != null ? err : new PrintWriter(Writer.nullWriter()));
    global.store = store;
    global.machines = machines;
    global.output = output;
    global.noColor = noColor;
    global.verbose = verbose;
    return global;
  }

  /** Where a verb's notices go while it runs (a wait for the store, say): its stderr. */
  public PrintWriter err() {
    return err;
  }

  /** An environment variable of this invocation, or null. */
  public String env(String name) {
    return env.get(name);
  }

  /** The whole environment of this invocation, for the shell to hand to its commands. */
  public Map<String, String> environment() {
    return env;
  }

  /** The store location: the option, else $FSM_STORE, else .fsm in the current folder. */
  public String store() {
    if (store != null) {
      return store;
    }
    String fromEnv = env.get("FSM_STORE");
    return fromEnv != null && !fromEnv.isBlank() ? fromEnv : ".fsm";
  }

  /** The machines folder: the option, else $FSM_MACHINES, else machines/. */
  public Path machines() {
    if (machines != null) {
      return machines;
    }
    String fromEnv = env.get("FSM_MACHINES");
    return Path.of(fromEnv != null && !fromEnv.isBlank() ? fromEnv : "machines");
  }

  /** True when data should be printed as JSON. */
  public boolean json() {
    return output == Output.json;
  }

  /** True when the user asked for more detail. */
  public boolean verbose() {
    return verbose;
  }

  /**
   * The terminal's width, which tables fit: $COLUMNS when exported, else the terminal's own
   * when stdout is one; empty when output goes elsewhere.
   */
  public OptionalInt columns() {
    String columns = env.get("COLUMNS");
    try {
      int n = columns == null ? 0 : Integer.parseInt(columns.strip());
      if (n >= 20) {
        return OptionalInt.of(n);
      }
    } catch (NumberFormatException e) {
      // Not a number: ask the terminal, as if COLUMNS were unset.
    }
    return TerminalWidth.ofTerminal();
  }

  /** True when colours are allowed: not refused by option or NO_COLOR (terminal checked later). */
  public boolean colorAllowed() {
    String noColorEnv = env.get("NO_COLOR");
    return !noColor && (noColorEnv == null || noColorEnv.isEmpty());
  }
}

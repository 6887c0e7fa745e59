package dev.fsm.cli.shell;

import dev.fsm.cli.common.CommandTree;
import dev.fsm.cli.common.GlobalOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code fsm shell}: the verbs without the {@code fsm} prefix, one process, many commands. */
@Command(
    name = "shell",
    mixinStandardHelpOptions = true,
    header = "Type fsm commands with completion, history and colours.",
    description = {
        "Runs the same verbs and options as the command line, without the `fsm` prefix. TAB"
            + " completes verbs, options, machines, task ids, states, events and commands;"
            + " history is kept in $XDG_STATE_HOME/fsm/history (default"
            + " ~/.local/state/fsm/history). Ctrl-C clears the line or stops `watch` and `tail`;"
            + " `exit` or Ctrl-D leaves.",
        "",
        "Each command opens the store and closes it again (or asks the runner that owns it),"
            + " so an idle shell never blocks a runner.",
        "",
        "With stdin not a terminal it reads one command a line, prints no prompt and no"
            + " colours, and exits with the status of the last command that failed (0 if"
            + " none)."},
    footer = {
      "fsm shell",
      "fsm shell < commands.txt"
    })
public final class Shell implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Override
  public Integer call() throws IOException {
    GlobalOptions global = GlobalOptions.of(spec);
    Map<String, String> env = new HashMap<>(global.environment());
    // Options given to the shell hold for every command typed in it.
    env.put("FSM_STORE", global.store());
    env.put("FSM_MACHINES", global.machines().toString());
    if (!global.colorAllowed()) {
      env.put("NO_COLOR", "1");
    }
    if (System.console() == null) {
      return PipedShell.run(new BufferedReader(new InputStreamReader(System.in,
          StandardCharsets.UTF_8)), CommandTree.of(spec), env, spec.commandLine().getOut(),
          spec.commandLine().getErr());
    }
    try (Terminal terminal = TerminalBuilder.builder().system(true).dumb(true).build()) {
      return new InteractiveShell(CommandTree.of(spec), terminal, env, historyFile(env),
          global.colorAllowed()).run();
    }
  }

  /** Where typed lines are kept, following the XDG base directory convention. */
  static Path historyFile(Map<String, String> env) {
    String state = env.get("XDG_STATE_HOME");
    Path base = state != null && !state.isBlank() ? Path.of(state)
        : Path.of(env.getOrDefault("HOME", System.getProperty("user.home")), ".local", "state");
    return base.resolve("fsm").resolve("history");
  }
}

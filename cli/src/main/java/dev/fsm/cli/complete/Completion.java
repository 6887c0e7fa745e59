package dev.fsm.cli.complete;

import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.ReadsEveryVerb;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fsm completion bash|zsh}: prints the shell completion script. */
@Command(
    name = "completion",
    mixinStandardHelpOptions = true,
    header = "Print the bash or zsh completion script.",
    description = {
        "Completes verbs and options, and task ids, machines, states, events and commands"
            + " from the store at the moment TAB is pressed.",
        "",
        "bash: source <(fsm completion bash)   (or save it as"
            + " ~/.local/share/bash-completion/completions/fsm)",
        "zsh:  source <(fsm completion zsh)   (in ~/.zshrc, after compinit)"},
    footer = {
      "source <(fsm completion bash)",
      "fsm completion zsh > ~/.zfunc/_fsm"
    })
public final class Completion implements Callable<Integer>, ReadsEveryVerb {

  /** The shells with a script. */
  enum Shell { bash, zsh }

  @Parameters(paramLabel = "bash|zsh", description = "The shell to complete in.")
  Shell shell;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    CommandSpec root = spec.parent();
    spec.commandLine().getOut().print(shell == Shell.bash ? CompletionScript.bash(root)
        : CompletionScript.zsh(root));
    spec.commandLine().getOut().flush();
    return ExitCodes.OK;
  }
}

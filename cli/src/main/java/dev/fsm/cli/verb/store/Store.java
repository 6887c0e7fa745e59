package dev.fsm.cli.verb.store;

import dev.fsm.cli.Fsm;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

/** {@code fsm store}: verifies and repairs the embedded store; the work is in its subcommands. */
@Command(
    name = "store",
    mixinStandardHelpOptions = true,
    header = "Verify the embedded store's index against its journal, or rebuild it.",
    description = "The journal is the store's source of truth; the index answers queries and is"
        + " rebuilt from the journal whenever it may not match it.",
    subcommands = {Check.class, Rebuild.class})
public final class Store implements Runnable {

  @ParentCommand Fsm fsm;

  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(),
        "an action is required: `fsm store check` or `fsm store rebuild`");
  }
}

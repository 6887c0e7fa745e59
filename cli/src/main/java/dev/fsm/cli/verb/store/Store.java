package dev.fsm.cli.verb.store;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code fsm store}: verifies, rebuilds, repairs, exports and imports, in its subcommands. */
@Command(
    name = "store",
    mixinStandardHelpOptions = true,
    header = "Verify, rebuild or repair the embedded store; export or import any store.",
    description = "The journal is the store's source of truth; the index answers queries and is"
        + " rebuilt from the journal whenever it may not match it. A damaged journal or snapshot"
        + " makes fsm refuse to open the store until `fsm store repair` salvages it. `fsm store"
        + " export` and `fsm store import` move a store's tasks to another store.",
    subcommands = {Check.class, Rebuild.class, Repair.class, Export.class, Import.class},
    footer = {
      "fsm store check",
      "fsm store export backup.jsonl"
    })
public final class Store implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(),
        "an action is required: `fsm store check`, `fsm store rebuild`, `fsm store repair`,"
            + " `fsm store export` or `fsm store import`");
  }
}

package dev.fsm.cli.verb.task;

import dev.fsm.FsmException;
import dev.fsm.diagnostic.DidYouMean;
import dev.fsm.operations.Operations;

/** Refuses a machine name the store has never seen, so a typo is not an empty answer. */
final class KnownMachine {

  private KnownMachine() {}

  /**
   * Checks that the store has a version of {@code machine}.
   *
   * @throws FsmException naming the machine, with the closest known name
   */
  static void require(Operations control, String machine) {
    if (!control.versions(machine).isEmpty()) {
      return;
    }
    String hint = DidYouMean.hint(machine, control.machineNames());
    throw new FsmException("no machine `" + machine + "` in this store" + (hint == null ? ""
        : "; " + hint) + " (`fsm machines` lists them)");
  }
}

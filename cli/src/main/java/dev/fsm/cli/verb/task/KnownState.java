package dev.fsm.cli.verb.task;

import dev.fsm.FsmException;
import dev.fsm.diagnostic.DidYouMean;
import dev.fsm.model.Machine;
import dev.fsm.operations.Operations;
import dev.fsm.store.MachineVersion;
import dev.fsm.yaml.MachineReader;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/** Refuses a state no registered machine version has, so a typo is not an empty answer. */
final class KnownState {

  private KnownState() {}

  /**
   * Checks that some version of {@code machine} (of any machine when null) has {@code state}.
   *
   * @throws FsmException naming the state, with the closest known name
   */
  static void require(Operations control, String machine, String state) {
    List<MachineVersion> versions = machine == null ? control.allVersions()
        : control.versions(machine);
    TreeSet<String> known = new TreeSet<>();
    for (MachineVersion v : versions) {
      Optional<Machine> m = MachineReader.read(Path.of(v.machine() + ".yaml"), v.definition())
          .machine();
      m.ifPresent(found -> known.addAll(found.stateNames()));
      if (known.contains(state)) {
        return;
      }
    }
    String hint = DidYouMean.hint(state, List.copyOf(known));
    throw new FsmException("no state `" + state + "` in "
        + (machine == null ? "any machine in this store" : "machine `" + machine + "`")
        + (hint == null ? "" : "; " + hint) + " (`fsm stats` lists each machine's states)");
  }
}

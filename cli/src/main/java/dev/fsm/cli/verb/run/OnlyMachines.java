package dev.fsm.cli.verb.run;

import dev.fsm.FsmException;
import dev.fsm.cli.common.MachineFiles;
import dev.fsm.diagnostic.DidYouMean;
import dev.fsm.store.Store;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** {@code fsm run --machine M}: a mistyped name would leave the runner idle forever. */
final class OnlyMachines {

  private OnlyMachines() {}

  /**
   * Refuses a name in {@code onlyMachines} that neither the store nor the machines folder has,
   * closing the store first, with the nearest known name as a hint.
   */
  static void check(List<String> onlyMachines, Store store, Path folder) {
    Map<String, Path> files = null;
    for (String name : onlyMachines) {
      if (!store.versions(name).isEmpty()) {
        continue;
      }
      if (files == null) {
        files = MachineFiles.inFolder(folder);
      }
      if (!files.containsKey(name)) {
        Set<String> known = new TreeSet<>(files.keySet());
        store.allVersions().forEach(v -> known.add(v.machine()));
        String hint = DidYouMean.hint(name, known);
        store.close();
        throw new FsmException("--machine " + name + ": no machine `" + name + "` in the store"
            + " or in machines folder " + folder + (hint == null ? "" : "; " + hint));
      }
    }
  }
}

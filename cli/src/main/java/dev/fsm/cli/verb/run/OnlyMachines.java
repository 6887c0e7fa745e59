package dev.fsm.cli.verb.run;

import dev.fsm.FsmException;
import dev.fsm.cli.common.MachineFiles;
import dev.fsm.cli.terminal.Style;
import dev.fsm.diagnostic.DidYouMean;
import dev.fsm.store.Store;
import java.io.PrintWriter;
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
   * closing the store first, with the nearest known name as a hint, or with the errors of the
   * file that should define it when that file cannot be read.
   */
  static void check(List<String> onlyMachines, Store store, Path folder, PrintWriter err,
      Style style) {
    Map<String, Path> files = null;
    for (String name : onlyMachines) {
      if (!store.versions(name).isEmpty()) {
        continue;
      }
      if (files == null) {
        files = MachineFiles.inFolder(folder);
      }
      if (!files.containsKey(name)) {
        refuseUnreadable(name, store, folder, err, style);
        Set<String> known = new TreeSet<>(files.keySet());
        store.allVersions().forEach(v -> known.add(v.machine()));
        String hint = DidYouMean.hint(name, known);
        store.close();
        throw new FsmException("--machine " + name + ": no machine `" + name + "` in the store"
            + " or in machines folder " + folder + (hint == null ? "" : "; " + hint));
      }
    }
  }

  /**
   * Refuses {@code name} as {@code fsm start} would when the folder has a file that may define
   * it but cannot be read (its errors printed on {@code err}); returns when there is none.
   */
  private static void refuseUnreadable(String name, Store store, Path folder, PrintWriter err,
      Style style) {
    try {
      MachineFiles.read(name, folder, err, style);
    } catch (MachineFiles.NotValidException e) {
      store.close();
      throw new FsmException("--machine " + name + ": " + e.getMessage());
    } catch (FsmException e) {
      // No file defines it: the caller's refusal, with its hint, says so.
    }
  }
}

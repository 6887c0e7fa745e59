package dev.fsm.cli.verb.run;

import dev.fsm.cli.common.MachineFiles;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.Store;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Warns, once per machine, when a file in the machines folder is not the machine's newest
 * registered version: {@code run} keeps every task on its pinned version, so an edited file does
 * nothing until it is registered, and the user should know.
 */
final class StaleMachineFiles {

  private StaleMachineFiles() {}

  /** Prints one warning per machine whose file differs from its newest version. */
  static void warn(Store store, Path folder, PrintWriter err) {
    for (Map.Entry<String, Path> e : MachineFiles.inFolder(folder).entrySet()) {
      String name = e.getKey();
      List<MachineVersion> versions = store.versions(name);
      if (versions.isEmpty()) {
        continue;
      }
      MachineVersion newest = versions.get(versions.size() - 1);
      String text;
      try {
        text = Files.readString(e.getValue(), StandardCharsets.UTF_8);
      } catch (IOException ex) {
        continue;
      }
      if (!text.equals(newest.definition())) {
        err.println("fsm run: warning: " + e.getValue() + " differs from machine `" + name
            + "`'s newest registered version v" + newest.number() + "; tasks keep running"
            + " under the versions they are pinned to. `fsm upgrade " + name + "` registers it"
            + " and applies its `upgrade:` to older tasks; `fsm start " + name + "` registers"
            + " it for new tasks only");
      }
    }
    err.flush();
  }
}

package dev.fsm.cli.verb.task;

import dev.fsm.access.StoreAccess;
import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.MachineFiles;
import dev.fsm.cli.common.TaskAccess;
import dev.fsm.cli.terminal.Table;
import dev.fsm.engine.ShownStatuses;
import dev.fsm.operations.MachineBreaker;
import dev.fsm.operations.Operations;
import dev.fsm.store.MachineVersion;
import dev.fsm.store.StorePurpose;
import dev.fsm.store.TaskCount;
import dev.fsm.task.ShownStatus;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code fsm machines}: the machines of the folder and the store, versions and task counts. */
@Command(
    name = "machines",
    mixinStandardHelpOptions = true,
    header = "List machines: their files, registered versions and tasks by status.",
    description = "Machines in the machines folder are listed even before any task is started;"
        + " a version is registered when `fsm start` first uses a file's text.")
public final class Machines implements Callable<Integer> {

  /** One machine as listed. */
  private record Listed(String name, Path file, List<MachineVersion> versions,
      Map<ShownStatus, Long> counts) {}

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    GlobalOptions global = GlobalOptions.of(spec);
    PrintWriter out = spec.commandLine().getOut();
    Map<String, Path> files = MachineFiles.inFolder(global.machines());
    Map<String, Listed> listed = new TreeMap<>();
    Map<String, MachineBreaker> breakers = Map.of();
    files.forEach((name, file) -> listed.put(name, new Listed(name, file, List.of(), Map.of())));
    StoreAccess.Located at = TaskAccess.locate(global, StorePurpose.READ, "fsm machines",
        true);
    String store = at.location().text();
    boolean hasStore = at.exists();
    if (hasStore) {
      try (Operations control = TaskAccess.open(global, "fsm machines", false)) {
        Map<String, Map<ShownStatus, Long>> counts = new TreeMap<>();
        ShownStatuses shown = new ShownStatuses(control::versions);
        for (TaskCount c : control.counts()) {
          counts.computeIfAbsent(c.machine(), m -> new EnumMap<>(ShownStatus.class))
              .merge(shown.of(c), c.count(), Long::sum);
        }
        List<String> names = new ArrayList<>(control.machineNames());
        names.addAll(files.keySet());
        for (String name : names) {
          listed.put(name, new Listed(name, files.get(name), control.versions(name),
              counts.getOrDefault(name, Map.of())));
        }
        breakers = BreakerText.of(control);
      }
    } else if (files.isEmpty()) {
      spec.commandLine().getErr().println("no machines: no machine files in "
          + global.machines() + " and no store at " + store + "; choose them with --machines"
          + " DIR and --store PATH");
      return ExitCodes.OK;
    }
    Map<String, MachineBreaker> shownBreakers = breakers;
    if (global.json()) {
      JsonDocument.print(out, g -> {
        g.writeStartArray();
        for (Listed m : listed.values()) {
          TaskJson.machine(g, m.name(), m.file() == null ? null : m.file().toString(),
              m.versions(), m.counts(), shownBreakers.get(m.name()));
        }
        g.writeEndArray();
      });
    } else {
      print(listed.values(), out, global);
      printBreakers(listed.keySet(), shownBreakers, out);
    }
    return ExitCodes.OK;
  }

  private static void print(Iterable<Listed> machines, PrintWriter out, GlobalOptions global) {
    Table table = new Table("MACHINE", "VERSION", "REGISTERED", "TASKS", "FILE");
    for (Listed m : machines) {
      String file = m.file() == null ? "-" : m.file().toString();
      if (m.versions().isEmpty()) {
        table.add(m.name(), "-", "-", TaskText.counts(m.counts()), file);
        continue;
      }
      // Newest version first, with the machine's name, counts and file on its row only.
      List<MachineVersion> newestFirst = new ArrayList<>(m.versions());
      Collections.reverse(newestFirst);
      boolean first = true;
      for (MachineVersion v : newestFirst) {
        table.add(first ? m.name() : "", "v" + v.number() + " " + v.version(),
            TaskText.time(v.registered()), first ? TaskText.counts(m.counts()) : "",
            first ? file : "");
        first = false;
      }
    }
    table.print(out, global.columns());
  }

  /**
   * The circuit breakers, one line per machine that has one, under the table: as the runner
   * owning the store sees them, else {@code closed}.
   */
  private static void printBreakers(Iterable<String> names, Map<String, MachineBreaker> breakers,
      PrintWriter out) {
    for (String name : names) {
      MachineBreaker b = breakers.get(name);
      if (b != null && !b.state().equals(MachineBreaker.NONE)) {
        out.println("breaker of `" + name + "`: " + BreakerText.text(b));
      }
    }
  }
}

package dev.fsm.cli.verb.task;

import dev.fsm.FsmException;
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
import dev.fsm.store.VersionCount;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
        + " a version is registered when `fsm start` first uses a file's text.",
    footer = {
      "fsm machines",
      "fsm machines --output json"
    })
public final class Machines implements Callable<Integer> {

  /** One machine as listed; {@code byVersion} holds its task counts per version id. */
  private record Listed(String name, Path file, List<MachineVersion> versions,
      Map<ShownStatus, Long> counts, Map<String, Map<ShownStatus, Long>> byVersion) {}

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    GlobalOptions global = GlobalOptions.of(spec);
    PrintWriter out = spec.commandLine().getOut();
    Map<String, Path> files = MachineFiles.inFolder(global.machines());
    Map<String, Listed> listed = new TreeMap<>();
    Map<String, MachineBreaker> breakers = Map.of();
    files.forEach((name, file) -> listed.put(name,
        new Listed(name, file, List.of(), Map.of(), Map.of())));
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
              counts.getOrDefault(name, Map.of()), byVersion(control, shown, name)));
        }
        breakers = BreakerText.of(control);
      }
    } else if (files.isEmpty()) {
      throw new FsmException("no machines: no machine files in " + global.machines()
          + " and no fsm store at " + store + "; choose them with --machines DIR and --store"
          + " PATH");
    }
    Map<String, MachineBreaker> shownBreakers = breakers;
    if (global.json()) {
      JsonDocument.print(out, g -> {
        g.writeStartArray();
        for (Listed m : listed.values()) {
          TaskJson.machine(g, m.name(), m.file() == null ? null : m.file().toString(),
              fileDiffers(m), m.versions(), m.counts(), m.byVersion(),
              shownBreakers.get(m.name()));
        }
        g.writeEndArray();
      });
    } else {
      print(listed.values(), out, global);
      printBreakers(listed.keySet(), shownBreakers, out);
    }
    if (!hasStore) {
      // The files are listed, but a missing store is not an empty one (SPEC section 5): a typo
      // in --store must not pass for "no tasks yet".
      out.flush();
      throw new FsmException("no fsm store at " + store + "; these machines have no tasks"
          + " there. `fsm start MACHINE` creates the store, or name one with --store PATH or"
          + " $FSM_STORE");
    }
    return ExitCodes.OK;
  }

  /** A machine's task counts per version id, as they show. */
  private static Map<String, Map<ShownStatus, Long>> byVersion(Operations control,
      ShownStatuses shown, String machine) {
    Map<String, Map<ShownStatus, Long>> counts = new TreeMap<>();
    for (VersionCount c : control.versionCounts(machine)) {
      counts.computeIfAbsent(c.version(), v -> new EnumMap<>(ShownStatus.class))
          .merge(shown.of(machine, c.version(), c.state(), c.status()), c.count(), Long::sum);
    }
    return counts;
  }

  /** Whether the machine's file differs from its newest version; null when either is missing. */
  private static Boolean fileDiffers(Listed m) {
    if (m.file() == null || m.versions().isEmpty()) {
      return null;
    }
    try {
      String text = Files.readString(m.file(), StandardCharsets.UTF_8);
      return !text.equals(m.versions().get(m.versions().size() - 1).definition());
    } catch (IOException e) {
      return null;
    }
  }

  private static void print(Iterable<Listed> machines, PrintWriter out, GlobalOptions global) {
    Table table = new Table("MACHINE", "VERSION", "REGISTERED", "TASKS", "FILE");
    for (Listed m : machines) {
      String file = m.file() == null ? "-" : m.file().toString();
      if (Boolean.TRUE.equals(fileDiffers(m))) {
        file += " (differs from v" + m.versions().get(m.versions().size() - 1).number()
            + ": fsm upgrade " + m.name() + ")";
      }
      if (m.versions().isEmpty()) {
        table.add(m.name(), "-", "-", TaskText.counts(m.counts()), file);
        continue;
      }
      // Newest first; the machine's name and file on its first row only. Older versions with
      // no tasks at all fold into one row, so a machine with many versions stays readable.
      List<MachineVersion> newestFirst = new ArrayList<>(m.versions());
      Collections.reverse(newestFirst);
      String name = m.name();
      String fileCell = file;
      for (int i = 0; i < newestFirst.size(); i++) {
        MachineVersion v = newestFirst.get(i);
        Map<ShownStatus, Long> counts = m.byVersion().getOrDefault(v.version(), Map.of());
        if (i > 0 && counts.isEmpty()) {
          int j = i;
          while (j + 1 < newestFirst.size() && m.byVersion()
              .getOrDefault(newestFirst.get(j + 1).version(), Map.of()).isEmpty()) {
            j++;
          }
          MachineVersion oldest = newestFirst.get(j);
          table.add(name, j == i ? "v" + v.number() + " " + v.version()
              : "v" + oldest.number() + "–v" + v.number(), j == i ? TaskText.time(v.registered())
              : "", "no tasks", fileCell);
          i = j;
        } else {
          table.add(name, "v" + v.number() + " " + v.version() + (i == 0 ? " (newest)" : ""),
              TaskText.time(v.registered()), counts.isEmpty() ? "no tasks"
                  : TaskText.counts(counts), fileCell);
        }
        name = "";
        fileCell = "";
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

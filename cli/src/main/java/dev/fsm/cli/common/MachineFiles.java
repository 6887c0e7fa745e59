package dev.fsm.cli.common;

import dev.fsm.FsmException;
import dev.fsm.cli.terminal.Style;
import dev.fsm.diagnostic.Diagnostic;
import dev.fsm.diagnostic.DidYouMean;
import dev.fsm.model.Machine;
import dev.fsm.operations.MachineSource;
import dev.fsm.validate.FileReport;
import dev.fsm.validate.Validator;
import dev.fsm.yaml.MachineReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/** Finds a machine's file by name in the machines folder (or by path) and reads it, validated. */
public final class MachineFiles {

  /** A machine file that passed validation: where it is, its text, and the machine it defines. */
  public record Checked(Path file, String text, Machine machine) {}

  private MachineFiles() {}

  /**
   * The machine named {@code nameOrPath} as a source to start tasks on. A bad file's
   * diagnostics are printed on {@code err} before the refusal.
   *
   * @throws FsmException when no file defines the machine, or the file is not valid
   */
  public static MachineSource source(String nameOrPath, Path folder, PrintWriter err,
      Style style) {
    Checked checked = read(nameOrPath, folder, err, style);
    return new MachineSource(checked.machine().name(),
        checked.file().toAbsolutePath().normalize(), checked.text());
  }

  /**
   * Finds and validates the machine named {@code nameOrPath} (a name in {@code folder}, or a
   * file's path). A bad file's diagnostics are printed on {@code err} before the refusal.
   *
   * @throws FsmException when no file defines the machine, or the file is not valid
   */
  public static Checked read(String nameOrPath, Path folder, PrintWriter err, Style style) {
    Path file = looksLikePath(nameOrPath) ? Path.of(nameOrPath) : find(nameOrPath, folder);
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new FsmException("cannot read machine file " + file + ": " + e.getMessage());
    }
    FileReport report = Validator.check(file, text);
    if (report.machine().isEmpty()) {
      for (Diagnostic d : report.diagnostics()) {
        err.println(style.bold(d.file() + ":" + d.position().line() + ":"
            + d.position().column() + ":") + " "
            + (d.isError() ? style.error("error:") : style.warning("warning:")) + " " + d.text());
      }
      throw new FsmException("machine file " + file + " is not valid; fix the errors above"
          + " (`fsm validate " + file + "` checks it again)");
    }
    return new Checked(file, text, report.machine().get());
  }

  /** Every machine file in the folder by machine name; empty when the folder does not exist. */
  public static Map<String, Path> inFolder(Path folder) {
    Map<String, Path> found = new TreeMap<>();
    if (!Files.isDirectory(folder)) {
      return found;
    }
    try {
      for (Path file : Validator.machineFiles(folder)) {
        MachineReader.read(file).machine().filter(m -> !m.name().isEmpty())
            .ifPresent(m -> found.putIfAbsent(m.name(), file));
      }
    } catch (FsmException e) {
      // A folder without machine files holds no machines.
    }
    return found;
  }

  private static boolean looksLikePath(String nameOrPath) {
    return nameOrPath.contains("/") || nameOrPath.endsWith(".yaml")
        || nameOrPath.endsWith(".yml");
  }

  private static Path find(String name, Path folder) {
    // The usual layout first (order.yaml defines order), so a start need not read every file.
    for (String ext : new String[] {".yaml", ".yml"}) {
      Path guess = folder.resolve(name + ext);
      if (Files.isRegularFile(guess) && MachineReader.read(guess).machine()
          .map(m -> m.name().equals(name)).orElse(false)) {
        return guess;
      }
    }
    if (!Files.isDirectory(folder)) {
      throw new FsmException("no machines folder " + folder + " here to find machine `" + name
          + "` in; name its file (fsm start path/to/" + name + ".yaml), or choose the folder"
          + " with --machines DIR or $FSM_MACHINES");
    }
    Map<String, Path> machines = inFolder(folder);
    Path file = machines.get(name);
    if (file == null) {
      String hint = DidYouMean.hint(name, machines.keySet());
      throw new FsmException("no machine `" + name + "` in machines folder " + folder
          + (hint != null ? "; " + hint
              : machines.isEmpty() ? " (it has no machine files)"
                  : "; it has: " + String.join(", ", machines.keySet())));
    }
    return file;
  }
}

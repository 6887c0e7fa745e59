package dev.fsm.cli.common;

import dev.fsm.FsmException;
import dev.fsm.cli.terminal.Style;
import dev.fsm.diagnostic.Diagnostic;
import dev.fsm.diagnostic.DidYouMean;
import dev.fsm.model.Machine;
import dev.fsm.operations.MachineSource;
import dev.fsm.validate.FileReport;
import dev.fsm.validate.Validator;
import dev.fsm.yaml.MachineDraft;
import dev.fsm.yaml.MachineReader;
import dev.fsm.yaml.YamlFile;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** Finds a machine's file by name in the machines folder (or by path) and reads it, validated. */
public final class MachineFiles {

  /** A machine file that passed validation: where it is, its text, and the machine it defines. */
  public record Checked(Path file, String text, Machine machine) {}

  /**
   * What a folder's files define: machines by name, and the drafts of the files that name no
   * machine because they could not be read (a YAML syntax error, no {@code machine:}).
   */
  private record Scan(Map<String, Path> machines, List<MachineDraft> unnamed) {}

  private MachineFiles() {}

  /** A refusal because a machine file that is, or may be, the one asked for is not valid. */
  public static final class NotValidException extends FsmException {
    NotValidException(String message) {
      super(message);
    }
  }

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
    Path file = looksLikePath(nameOrPath) ? Path.of(nameOrPath)
        : find(nameOrPath, folder, err, style);
    String text = smallText(file);
    // A file that is not a small UTF-8 text is read again by the validator, which says why.
    FileReport report = text == null ? Validator.check(file) : Validator.check(file, text);
    if (report.machine().isEmpty()) {
      print(report.diagnostics(), err, style);
      throw new NotValidException("machine file " + file + " is not valid; fix the errors above"
          + " (`fsm validate " + file + "` checks it again)");
    }
    return new Checked(file, text, report.machine().get());
  }

  /**
   * The file's text when it is UTF-8 of at most {@link YamlFile#MAX_BYTES} that can be read,
   * reading no more than that (a device such as /dev/zero never ends); null otherwise.
   */
  private static String smallText(Path file) {
    byte[] bytes;
    try (InputStream in = Files.newInputStream(file)) {
      bytes = in.readNBytes(YamlFile.MAX_BYTES + 1);
    } catch (IOException e) {
      return null;
    }
    if (bytes.length > YamlFile.MAX_BYTES) {
      return null;
    }
    try {
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes)).toString();
    } catch (CharacterCodingException e) {
      return null;
    }
  }

  /** Every machine file in the folder by machine name; empty when the folder does not exist. */
  public static Map<String, Path> inFolder(Path folder) {
    return scan(folder).machines();
  }

  private static Scan scan(Path folder) {
    Map<String, Path> found = new TreeMap<>();
    List<MachineDraft> unnamed = new ArrayList<>();
    if (!Files.isDirectory(folder)) {
      return new Scan(found, unnamed);
    }
    try {
      for (Path file : Validator.machineFiles(folder)) {
        MachineDraft draft = MachineReader.read(file);
        Optional<String> name = nameOf(draft);
        if (name.isPresent()) {
          found.putIfAbsent(name.get(), file);
        } else {
          unnamed.add(draft);
        }
      }
    } catch (FsmException e) {
      // A folder without machine files holds no machines.
    }
    return new Scan(found, unnamed);
  }

  private static Optional<String> nameOf(MachineDraft draft) {
    return draft.machine().map(Machine::name).filter(n -> !n.isEmpty());
  }

  private static void print(List<Diagnostic> diagnostics, PrintWriter err, Style style) {
    for (Diagnostic d : diagnostics) {
      err.println(style.bold(d.file() + ":" + d.position().line() + ":"
          + d.position().column() + ":") + " "
          + (d.isError() ? style.error("error:") : style.warning("warning:")) + " " + d.text());
    }
  }

  private static boolean looksLikePath(String nameOrPath) {
    return nameOrPath.contains("/") || nameOrPath.endsWith(".yaml")
        || nameOrPath.endsWith(".yml");
  }

  private static Path find(String name, Path folder, PrintWriter err, Style style) {
    // The usual layout first (order.yaml defines order), so a start need not read every file.
    // A file of that name that names no machine (it cannot be read) is the one meant: read()
    // then shows its errors, as for any other invalid machine.
    for (String ext : new String[] {".yaml", ".yml"}) {
      Path guess = folder.resolve(name + ext);
      if (Files.isRegularFile(guess)
          && nameOf(MachineReader.read(guess)).map(name::equals).orElse(true)) {
        return guess;
      }
    }
    if (!Files.isDirectory(folder)) {
      throw new FsmException("no machines folder " + folder + " here to find machine `" + name
          + "` in; name its file (fsm start path/to/" + name + ".yaml), or choose the folder"
          + " with --machines DIR or $FSM_MACHINES");
    }
    Scan scan = scan(folder);
    Path file = scan.machines().get(name);
    if (file == null) {
      throw missing(name, folder, scan, err, style);
    }
    return file;
  }

  /** The refusal of a name that no file in the folder defines, after the unread files' errors. */
  private static FsmException missing(String name, Path folder, Scan scan, PrintWriter err,
      Style style) {
    Set<String> names = scan.machines().keySet();
    String hint = DidYouMean.hint(name, names);
    String message = "no machine `" + name + "` in machines folder " + folder;
    if (hint != null) {
      message += "; " + hint;
    } else if (!names.isEmpty()) {
      message += "; it has: " + String.join(", ", names);
    } else if (scan.unnamed().isEmpty()) {
      message += " (it has no machine files)";
    }
    if (!scan.unnamed().isEmpty()) {
      // Any of them may define the machine asked for, so their errors are shown, not hidden.
      scan.unnamed().forEach(d -> print(d.diagnostics(), err, style));
      message += "; " + (scan.unnamed().size() == 1 ? "the file above is" : "the files above are")
          + " not valid and may define it (`fsm validate " + folder + "` checks the folder"
          + " again)";
      return new NotValidException(message);
    }
    return new FsmException(message);
  }
}

package dev.fsm.cli.verb.init;

import dev.fsm.FsmException;
import dev.fsm.cli.common.ExitCodes;
import dev.fsm.cli.common.GlobalOptions;
import dev.fsm.cli.common.Json;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fsm init}: a machines folder with a commented example machine that runs. */
@Command(
    name = "init",
    mixinStandardHelpOptions = true,
    header = "Make a machines folder with a commented example machine and its script.",
    description = {
      "Writes DIR/" + Scaffold.MACHINE_FILE + ", a small machine with every line explained,"
          + " and DIR/" + Scaffold.SCRIPT_FILE + ", the program its first state runs"
          + " (executable), so that `fsm validate`, `fsm start " + Scaffold.MACHINE + "` and"
          + " `fsm run --until-idle` work at once. DIR defaults to the machines folder"
          + " (--machines, $FSM_MACHINES, or machines/ here) and is created when missing.",
      "Never overwrites a file: when either file exists it writes nothing and exits 1."
    },
    footer = {"fsm init", "fsm init ~/work/machines"})
public final class Init implements Callable<Integer> {

  /** Words a shell leaves alone, so a folder made of them needs no quotes. */
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./~:@%+=,-]+");

  @Parameters(index = "0", arity = "0..1", paramLabel = "DIR",
      description = "The folder to write to (default: the machines folder).")
  Path dir;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    GlobalOptions global = GlobalOptions.of(spec);
    Path folder = dir != null ? dir : global.machines();
    Path machine = folder.resolve(Scaffold.MACHINE_FILE);
    Path script = folder.resolve(Scaffold.SCRIPT_FILE);
    if (Files.exists(folder) && !Files.isDirectory(folder)) {
      throw new FsmException(folder + " is a file, not a folder; give fsm init a folder: fsm"
          + " init DIR");
    }
    for (Path p : List.of(machine, script)) {
      if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
        throw new FsmException(p + " already exists; fsm init never overwrites a file, so it"
            + " wrote nothing: move the file away, or give another folder: fsm init DIR");
      }
    }
    write(script, Scaffold.SCRIPT_TEXT, true, null);
    write(machine, Scaffold.MACHINE_TEXT, false, script);
    List<String> next = next(folder, global);
    PrintWriter out = spec.commandLine().getOut();
    if (global.json()) {
      Map<String, Object> doc = new LinkedHashMap<>();
      doc.put("created", List.of(machine.toString(), script.toString()));
      doc.put("next", next);
      Json.print(out, doc);
    } else {
      out.println("created " + machine + " (a machine to start from) and " + script
          + " (the program its first state runs)");
      out.println("next:");
      next.forEach(command -> out.println("  " + command));
    }
    return ExitCodes.OK;
  }

  /** The commands that validate, start and run the example from the current folder. */
  private static List<String> next(Path folder, GlobalOptions global) {
    String machines = folder.normalize().equals(global.machines().normalize()) ? ""
        : " --machines " + quoted(folder.toString());
    List<String> next = new ArrayList<>();
    next.add("fsm validate" + machines);
    next.add("fsm start " + Scaffold.MACHINE + machines + " --context '" + Scaffold.CONTEXT + "'");
    next.add("fsm run --until-idle" + machines);
    return next;
  }

  private static String quoted(String word) {
    return PLAIN.matcher(word).matches() ? word : "'" + word.replace("'", "'\\''") + "'";
  }

  /**
   * Writes a new file, failing if it appeared meanwhile; on failure removes {@code undo}, the
   * file written just before, so a refused init leaves nothing behind.
   */
  private static void write(Path file, String text, boolean executable, Path undo) {
    Path parent = file.toAbsolutePath().getParent();
    try {
      Files.createDirectories(parent);
    } catch (FileAlreadyExistsException e) {
      removeQuietly(undo);
      throw new FsmException("cannot make folder " + parent + ": a file of that name is in the"
          + " way; move it, or give another folder: fsm init DIR");
    } catch (IOException e) {
      removeQuietly(undo);
      throw new FsmException("cannot make folder " + parent + ": " + reason(e) + "; choose a"
          + " folder you can write to: fsm init DIR");
    }
    try {
      Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
          StandardOpenOption.WRITE);
      if (executable) {
        try {
          Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        } catch (UnsupportedOperationException e) {
          file.toFile().setExecutable(true, false);
        }
      }
    } catch (FileAlreadyExistsException e) {
      removeQuietly(undo);
      throw new FsmException(file + " already exists; fsm init never overwrites a file, so it"
          + " wrote nothing: move the file away, or give another folder: fsm init DIR");
    } catch (IOException e) {
      removeQuietly(undo);
      throw new FsmException("cannot write " + file + ": " + reason(e) + "; choose a folder"
          + " you can write to: fsm init DIR");
    }
  }

  private static void removeQuietly(Path file) {
    if (file == null) {
      return;
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // What was written stays; the message names the file that failed.
    }
  }

  private static String reason(IOException e) {
    return switch (e.getClass().getSimpleName()) {
      case "AccessDeniedException" -> "permission denied";
      case "NoSuchFileException" -> "no such folder";
      case "FileSystemException" -> e.getMessage() == null ? "cannot write there"
          : e.getMessage().replaceFirst("^.*?: ", "");
      default -> e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    };
  }
}

package dev.fsm.action;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds the file a program action runs, by the rule {@code fsm validate} checks: a program
 * with a {@code /} resolves against the machine file's folder, a bare name is looked up on PATH.
 */
public final class ProgramPath {

  private ProgramPath() {}

  /** The executable to run, or why there is none. */
  static Path resolve(Path machineFolder, String program) throws ActionException {
    if (!program.contains("/")) {
      return onPath(program, System.getenv("PATH")).orElseThrow(() -> new ActionException(
          "program `" + program + "` is not on PATH; install it, or give a path relative to"
              + " the machine file"));
    }
    Path path;
    try {
      path = machineFolder.resolve(program).normalize();
    } catch (InvalidPathException e) {
      throw new ActionException("program path `" + program + "` is not a valid path");
    }
    if (!Files.exists(path)) {
      throw new ActionException("program `" + program + "` does not exist (looked for " + path
          + ")");
    }
    if (Files.isDirectory(path)) {
      throw new ActionException("program `" + program + "` is a folder, not a program");
    }
    if (!Files.isExecutable(path)) {
      throw new ActionException("program `" + program + "` is not executable; run `chmod +x "
          + path + "`");
    }
    return path;
  }

  /** The first executable file named {@code program} in the folders of a PATH value. */
  public static Optional<Path> onPath(String program, String pathVariable) {
    if (pathVariable == null) {
      return Optional.empty();
    }
    for (String dir : pathVariable.split(File.pathSeparator)) {
      if (dir.isEmpty()) {
        continue;
      }
      try {
        Path candidate = Path.of(dir, program);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      } catch (InvalidPathException e) {
        return Optional.empty();
      }
    }
    return Optional.empty();
  }
}

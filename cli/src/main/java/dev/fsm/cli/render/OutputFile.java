package dev.fsm.cli.render;

import dev.fsm.FsmException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where {@code fsm render -o} writes: checked before the work, so a typo fails fast. */
public final class OutputFile {

  private OutputFile() {}

  /**
   * Refuses a path that cannot be a diagram file.
   *
   * @throws FsmException naming the path and what to do
   */
  public static void check(Path file) {
    if (Files.isDirectory(file)) {
      throw new FsmException("-o " + file + " is a folder; name a file in it, such as "
          + file.resolve("diagram.svg"));
    }
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null && !Files.isDirectory(parent)) {
      throw new FsmException("cannot write " + file + ": folder " + parent
          + " does not exist; create it first or choose another path with -o");
    }
    if (Files.exists(file) && !Files.isWritable(file)) {
      throw new FsmException("cannot write " + file + ": permission denied; choose another"
          + " path with -o");
    }
  }

  /**
   * Writes the diagram, replacing any old file.
   *
   * @throws FsmException naming the path and the reason
   */
  public static void write(Path file, byte[] bytes) {
    try {
      Files.write(file, bytes);
    } catch (AccessDeniedException e) {
      throw new FsmException("cannot write " + file + ": permission denied; choose another"
          + " path with -o");
    } catch (IOException e) {
      throw new FsmException("cannot write " + file + ": " + e.getMessage()
          + "; choose another path with -o");
    }
  }
}

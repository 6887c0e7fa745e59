package dev.fsm.diagnostic;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Collects the diagnostics of one file as they are found. */
public final class Problems {

  private final Path file;
  private final List<Diagnostic> found = new ArrayList<>();

  public Problems(Path file) {
    this.file = file;
  }

  /** The file these problems are about. */
  public Path file() {
    return file;
  }

  /** Records an error. */
  public void error(Position at, String message) {
    error(at, message, null);
  }

  /** Records an error with a hint. */
  public void error(Position at, String message, String hint) {
    found.add(Diagnostic.error(file, at, message, hint));
  }

  /** Records a warning with a hint. */
  public void warning(Position at, String message, String hint) {
    found.add(Diagnostic.warning(file, at, message, hint));
  }

  /** True when any error was recorded. */
  public boolean hasErrors() {
    for (Diagnostic d : found) {
      if (d.isError()) {
        return true;
      }
    }
    return false;
  }

  /** Everything recorded so far. */
  public List<Diagnostic> all() {
    return List.copyOf(found);
  }
}

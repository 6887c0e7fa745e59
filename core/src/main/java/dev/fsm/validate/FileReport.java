package dev.fsm.validate;

import dev.fsm.diagnostic.Diagnostic;
import dev.fsm.model.Machine;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The result of checking one machine file.
 *
 * @param file the file as the user named it
 * @param machine the machine, present only when the file has no errors
 * @param diagnostics every problem found, in file order
 */
public record FileReport(Path file, Optional<Machine> machine, List<Diagnostic> diagnostics) {

  public FileReport {
    List<Diagnostic> sorted = new ArrayList<>(diagnostics);
    sorted.sort(Diagnostic.ORDER);
    diagnostics = List.copyOf(sorted);
  }

  /** True when the file has at least one error. */
  public boolean hasErrors() {
    for (Diagnostic d : diagnostics) {
      if (d.isError()) {
        return true;
      }
    }
    return false;
  }
}

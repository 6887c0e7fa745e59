package dev.fsm.yaml;

import dev.fsm.diagnostic.Diagnostic;
import dev.fsm.model.Machine;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A machine file as read: the model built from it (when its shape allowed one), where each part
 * was written, and the problems found while reading. The model is trustworthy only when there
 * are no errors; checks of the whole machine come after, in {@code dev.fsm.validate}.
 */
public record MachineDraft(
    Path file, Optional<Machine> machine, SourceMap sources, List<Diagnostic> diagnostics) {

  public MachineDraft {
    diagnostics = List.copyOf(diagnostics);
  }
}

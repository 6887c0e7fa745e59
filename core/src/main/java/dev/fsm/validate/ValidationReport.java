package dev.fsm.validate;

import dev.fsm.diagnostic.Diagnostic;
import java.util.List;

/** The result of validating a set of machine files: every problem, sorted by file and line. */
public record ValidationReport(List<FileReport> files) {

  public ValidationReport {
    files = List.copyOf(files);
  }

  /** Every diagnostic of every file, by file, line and column. */
  public List<Diagnostic> diagnostics() {
    return files.stream().flatMap(f -> f.diagnostics().stream()).sorted(Diagnostic.ORDER)
        .toList();
  }

  /** How many errors were found. */
  public long errorCount() {
    return diagnostics().stream().filter(Diagnostic::isError).count();
  }

  /** How many warnings were found. */
  public long warningCount() {
    return diagnostics().size() - errorCount();
  }

  /** True when any file has an error. */
  public boolean hasErrors() {
    return files.stream().anyMatch(FileReport::hasErrors);
  }
}

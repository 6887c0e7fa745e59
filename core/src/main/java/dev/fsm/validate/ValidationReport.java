package dev.fsm.validate;

import dev.fsm.diagnostic.Diagnostic;
import java.util.ArrayList;
import java.util.List;

/** The result of validating a set of machine files: every problem, sorted by file and line. */
public final class ValidationReport {

  private final List<FileReport> files;
  private final List<Diagnostic> diagnostics;
  private final long errorCount;

  public ValidationReport(List<FileReport> files) {
    this.files = List.copyOf(files);
    List<Diagnostic> all = new ArrayList<>();
    long errors = 0;
    for (FileReport file : files) {
      for (Diagnostic d : file.diagnostics()) {
        all.add(d);
        errors += d.isError() ? 1 : 0;
      }
    }
    all.sort(Diagnostic.ORDER);
    this.diagnostics = List.copyOf(all);
    this.errorCount = errors;
  }

  /** Each file's report, in the order the files were named. */
  public List<FileReport> files() {
    return files;
  }

  /** Every diagnostic of every file, by file, line and column. */
  public List<Diagnostic> diagnostics() {
    return diagnostics;
  }

  /** How many errors were found. */
  public long errorCount() {
    return errorCount;
  }

  /** How many warnings were found. */
  public long warningCount() {
    return diagnostics.size() - errorCount;
  }

  /** True when any file has an error. */
  public boolean hasErrors() {
    return errorCount > 0;
  }
}

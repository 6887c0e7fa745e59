package dev.fsm.diagnostic;

import java.nio.file.Path;
import java.util.Comparator;

/**
 * One problem found in a machine file, at the key or value it is about.
 *
 * @param file the file as the user named it
 * @param position where in the file
 * @param severity error or warning
 * @param message what is wrong, naming the state, key or value
 * @param hint how to fix it, or null when there is nothing useful to add
 */
public record Diagnostic(
    Path file, Position position, Severity severity, String message, String hint) {

  /** By file, then line and column, errors before warnings at the same place. */
  public static final Comparator<Diagnostic> ORDER =
      Comparator.comparing((Diagnostic d) -> d.file().toString())
          .thenComparing(Diagnostic::position)
          .thenComparing(Diagnostic::severity)
          .thenComparing(Diagnostic::message);

  /** An error. */
  public static Diagnostic error(Path file, Position at, String message, String hint) {
    return new Diagnostic(file, at, Severity.ERROR, message, hint);
  }

  /** A warning. */
  public static Diagnostic warning(Path file, Position at, String message, String hint) {
    return new Diagnostic(file, at, Severity.WARNING, message, hint);
  }

  /** True for an error. */
  public boolean isError() {
    return severity == Severity.ERROR;
  }

  /** The message with its hint, if any, in parentheses. */
  public String text() {
    return hint == null ? message : message + " (" + hint + ")";
  }

  /** The conventional compiler form: {@code FILE:LINE:COL: error: message (hint)}. */
  public String format() {
    return file + ":" + position.line() + ":" + position.column() + ": " + severity.word() + ": "
        + text();
  }
}

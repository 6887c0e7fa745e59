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
  public static final Comparator<Diagnostic> ORDER = Diagnostic::compareByPlace;

  /** Longest quoted value a message shows in full. */
  private static final int MAX_QUOTED = 60;
  /** Longest message or hint; anything longer is cut. */
  private static final int MAX_TEXT = 500;

  public Diagnostic {
    message = oneLine(message);
    hint = hint == null ? null : oneLine(hint);
  }

  // Plain comparisons rather than a Comparator.comparing chain: this runs on every start,
  // where each lambda in the chain costs start-up time.
  private static int compareByPlace(Diagnostic a, Diagnostic b) {
    int c = a.file.toString().compareTo(b.file.toString());
    if (c == 0) {
      c = a.position.compareTo(b.position);
    }
    if (c == 0) {
      c = a.severity.compareTo(b.severity);
    }
    return c != 0 ? c : a.message.compareTo(b.message);
  }

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

  /**
   * Messages quote the file, and a file can hold anything: line breaks and control characters
   * are escaped and long `quoted` values shortened, so a diagnostic is always one readable line.
   */
  private static String oneLine(String text) {
    StringBuilder out = new StringBuilder();
    boolean quoted = false;
    int quotedLength = 0;
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '`') {
        quoted = !quoted;
        quotedLength = 0;
      } else if (quoted && ++quotedLength > MAX_QUOTED) {
        if (quotedLength == MAX_QUOTED + 1) {
          out.append("...");
        }
        continue;
      }
      if (c == '\n') {
        out.append("\\n");
      } else if (c == '\r') {
        out.append("\\r");
      } else if (c == '\t') {
        out.append("\\t");
      } else if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
        out.append(String.format("\\u%04x", (int) c));
      } else {
        out.append(c);
      }
    }
    return out.length() > MAX_TEXT ? out.substring(0, MAX_TEXT - 3) + "..." : out.toString();
  }
}

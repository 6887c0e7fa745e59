package dev.fsm.diagnostic;

/**
 * Text from outside fsm (an action's stderr, say) made safe to print on a terminal: control
 * characters other than line feed and tab, which could move the cursor, clear the screen or set
 * the window title, are written as escapes such as {@code \u001b}; a CR LF line end is a line
 * feed.
 */
public final class Printable {

  private Printable() {}

  /** {@code text} with its control characters, except line feeds and tabs, escaped. */
  public static String of(String text) {
    if (text == null || text.codePoints().noneMatch(Printable::escaped)) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length() + 16);
    for (int i = 0; i < text.length(); i += Character.charCount(text.codePointAt(i))) {
      int c = text.codePointAt(i);
      if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
        continue;
      }
      if (escaped(c)) {
        out.append(String.format("\\u%04x", c));
      } else {
        out.appendCodePoint(c);
      }
    }
    return out.toString();
  }

  private static boolean escaped(int c) {
    // ISO controls (C0, DEL, C1, which holds the 8-bit CSI) and the bidirectional overrides.
    return (Character.isISOControl(c) && c != '\n' && c != '\t')
        || (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
  }
}

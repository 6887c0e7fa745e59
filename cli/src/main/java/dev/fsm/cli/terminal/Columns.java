package dev.fsm.cli.terminal;

import org.jline.utils.WCWidth;

/**
 * Text measured in screen columns, as a terminal draws it: a wide (CJK) character takes two, a
 * combining mark none. JLine's {@link WCWidth} holds the Unicode tables; it is one small class,
 * so measuring loads nothing else of JLine.
 */
public final class Columns {

  private Columns() {}

  /** How many columns {@code text} takes; control characters take none. */
  public static int width(String text) {
    if (narrow(text)) {
      return text.length();
    }
    int width = 0;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      width += Math.max(0, WCWidth.wcwidth(cp));
      i += Character.charCount(cp);
    }
    return width;
  }

  /**
   * True when every character takes one column: printable and below U+0300, where the first
   * combining marks start. Most cells are, and for them WCWidth's tables are never loaded
   * (measured: 3-5 ms to load them in a fresh JVM, and about 10 us a cell before the JIT).
   */
  private static boolean narrow(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 0x20 || (c >= 0x7f && c < 0xa0) || c >= 0x300) {
        return false;
      }
    }
    return true;
  }

  /**
   * The longest start of {@code text} that fits in {@code columns}: never half a wide
   * character or a surrogate pair, and a combining mark stays with the character it marks.
   */
  public static String start(String text, int columns) {
    if (narrow(text)) {
      return text.substring(0, Math.max(0, Math.min(columns, text.length())));
    }
    int width = 0;
    int i = 0;
    while (i < text.length()) {
      int cp = text.codePointAt(i);
      int w = Math.max(0, WCWidth.wcwidth(cp));
      if (width + w > columns) {
        break;
      }
      width += w;
      i += Character.charCount(cp);
    }
    // Marks after the last kept character have width 0 and were kept with it.
    return text.substring(0, i);
  }
}

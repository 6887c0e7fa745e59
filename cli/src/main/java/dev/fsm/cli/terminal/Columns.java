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
    int width = 0;
    for (int i = 0; i < text.length(); ) {
      int cp = text.codePointAt(i);
      width += Math.max(0, WCWidth.wcwidth(cp));
      i += Character.charCount(cp);
    }
    return width;
  }

  /**
   * The longest start of {@code text} that fits in {@code columns}: never half a wide
   * character or a surrogate pair, and a combining mark stays with the character it marks.
   */
  public static String start(String text, int columns) {
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

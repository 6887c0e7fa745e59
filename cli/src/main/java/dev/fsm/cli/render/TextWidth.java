package dev.fsm.cli.render;

/**
 * Approximate widths of Helvetica-like text, so boxes can be sized without loading AWT fonts
 * (which costs a few hundred milliseconds and fails on machines without fonts).
 */
final class TextWidth {

  private TextWidth() {}

  /** The width of {@code text} at {@code size} points. */
  static double of(String text, double size, boolean bold) {
    double em = 0;
    for (int i = 0; i < text.length(); i++) {
      em += advance(text.charAt(i));
    }
    return em * size * (bold ? 1.07 : 1.0);
  }

  // Advances in ems, from Helvetica's metrics rounded into a few classes.
  private static double advance(char c) {
    if ("iljI.,:;'|!".indexOf(c) >= 0) {
      return 0.25;
    } else if ("ftr()[] -/\\".indexOf(c) >= 0) {
      return 0.33;
    } else if ("mwMW@%".indexOf(c) >= 0) {
      return 0.86;
    } else if (Character.isUpperCase(c) || c == '_' || c == '×' || c == '…') {
      return 0.68;
    } else if (c > 0x2e80) {
      return 1.0;
    }
    return 0.56;
  }
}

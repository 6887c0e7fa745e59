package dev.fsm.cli.terminal;

/**
 * Colours for terminal output, switched off when not wanted or not on a terminal. Plain ANSI
 * codes, so printing never loads a library on the start path.
 */
public final class Style {

  private static final String RESET = "\u001b[0m";

  private final boolean on;

  private Style(boolean on) {
    this.on = on;
  }

  /** Colour when allowed and both stdin and stdout are a terminal. */
  public static Style forTerminal(boolean allowed) {
    return new Style(allowed && !Tty.stdoutSurelyNotTerminal() && System.console() != null);
  }

  /** Bold text. */
  public String bold(String text) {
    return paint("\u001b[1m", text);
  }

  /** An error word. */
  public String error(String text) {
    return paint("\u001b[1;31m", text);
  }

  /** A warning word. */
  public String warning(String text) {
    return paint("\u001b[1;35m", text);
  }

  /** A good outcome. */
  public String good(String text) {
    return paint("\u001b[32m", text);
  }

  private String paint(String code, String text) {
    return on ? code + text + RESET : text;
  }
}

package dev.fsm.cli;

import picocli.CommandLine.Help.Ansi;

/** Colours for terminal output, switched off when not wanted or not on a terminal. */
public final class Style {

  private final Ansi ansi;

  private Style(Ansi ansi) {
    this.ansi = ansi;
  }

  /** Colour when allowed and both stdin and stdout are a terminal. */
  public static Style forTerminal(boolean allowed) {
    return new Style(allowed && System.console() != null ? Ansi.ON : Ansi.OFF);
  }

  /** No colour at all. */
  public static Style plain() {
    return new Style(Ansi.OFF);
  }

  /** Bold text. */
  public String bold(String text) {
    return paint("bold", text);
  }

  /** An error word. */
  public String error(String text) {
    return paint("bold,red", text);
  }

  /** A warning word. */
  public String warning(String text) {
    return paint("bold,magenta", text);
  }

  /** A good outcome. */
  public String good(String text) {
    return paint("green", text);
  }

  private String paint(String styles, String text) {
    if (ansi == Ansi.OFF) {
      return text;
    }
    return ansi.string("@|" + styles + " " + text.replace("|@", "| @") + "|@");
  }
}

package dev.fsm.cli.render;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;

/** What {@code fsm render} writes. */
public enum Format {
  svg,
  png,
  dot;

  /** The format a file name's extension implies: {@code .svg}, {@code .png}, {@code .dot}/{@code .gv}. */
  public static Optional<Format> of(Path file) {
    Path name = file.getFileName();
    String n = name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
    if (n.endsWith(".svg")) {
      return Optional.of(svg);
    } else if (n.endsWith(".png")) {
      return Optional.of(png);
    } else if (n.endsWith(".dot") || n.endsWith(".gv")) {
      return Optional.of(dot);
    }
    return Optional.empty();
  }
}

package dev.fsm.render;

import java.util.Locale;
import java.util.Optional;

/** Which way a diagram flows from the initial state: Graphviz's {@code rankdir} values. */
public enum Direction {
  /** Left to right: the default, because event labels read best along horizontal edges. */
  LR,
  /** Top to bottom. */
  TB,
  /** Right to left. */
  RL,
  /** Bottom to top. */
  BT;

  /** The direction a user typed ({@code lr} or {@code LR}), if it is one. */
  public static Optional<Direction> parse(String text) {
    for (Direction d : values()) {
      if (d.name().equals(text.strip().toUpperCase(Locale.ROOT))) {
        return Optional.of(d);
      }
    }
    return Optional.empty();
  }
}

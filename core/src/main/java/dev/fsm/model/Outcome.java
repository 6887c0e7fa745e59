package dev.fsm.model;

import java.util.Locale;

/** How a final state ends a task. */
public enum Outcome {
  COMPLETED,
  FAILED;

  /** The word used in machine files. */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }
}

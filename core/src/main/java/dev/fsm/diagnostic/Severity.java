package dev.fsm.diagnostic;

import java.util.Locale;

/** How bad a problem is: errors make a machine unusable, warnings do not. */
public enum Severity {
  ERROR,
  WARNING;

  /** The word printed in a diagnostic line. */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }
}

package dev.fsm.model;

import java.util.Locale;

/** What happens to a machine's unfinished tasks when a new version of it is registered. */
public enum UpgradeStrategy {
  /** Unfinished tasks keep the version they started under. */
  CONTINUE,
  /** Unfinished tasks move to the new version at their next claim. */
  UPGRADE,
  /** Unfinished tasks are killed, with the reason recorded. */
  ABORT;

  /** The word used in machine files. */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }
}

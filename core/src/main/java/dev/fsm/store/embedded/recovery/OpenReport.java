package dev.fsm.store.embedded.recovery;

import java.util.Locale;
import java.util.Optional;

/**
 * What opening an embedded store found and did, to tell the user: whether the index was used as
 * left at a clean close or rebuilt from the journal, and why.
 *
 * @param rebuilt true when the index was rebuilt by replaying the journal
 * @param why what was found: why the index was rebuilt, or that it was used as is
 * @param recordsReplayed snapshot and journal records applied to rebuild the index; 0 when it
 *     was not
 * @param fromSnapshot true when the rebuild started from the last checkpoint's snapshot
 * @param millis how long opening the index took
 * @param journalRecovery what opening the journal repaired, when it cut a torn or damaged tail
 */
public record OpenReport(boolean rebuilt, String why, long recordsReplayed,
    boolean fromSnapshot, long millis, Optional<String> journalRecovery) {

  /** One line for the user, e.g. for {@code fsm run} to print at start. */
  public String summary() {
    StringBuilder line = new StringBuilder("index: ");
    if (rebuilt) {
      line.append(String.format(Locale.ROOT, "rebuilt from the %s because %s: %d record%s"
          + " replayed in %d ms", fromSnapshot ? "snapshot and journal" : "journal", why,
          recordsReplayed, recordsReplayed == 1 ? "" : "s", millis));
    } else {
      line.append(String.format(Locale.ROOT, "%s (%d ms)", why, millis));
    }
    journalRecovery.ifPresent(j -> line.append("; ").append(j));
    return line.toString();
  }
}

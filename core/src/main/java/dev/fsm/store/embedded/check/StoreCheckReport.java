package dev.fsm.store.embedded.check;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What {@code StoreCheck} found.
 *
 * @param folder the store's folder
 * @param tasks tasks in the journal
 * @param recordsReplayed journal records read and applied to the fresh index
 * @param collectionsCompared index collections compared
 * @param entriesCompared entries visited on both sides together, each pair counted once
 * @param differencesFound every difference, including those not kept
 * @param differences the first few differences, in collection and key order
 * @param millis how long the check took
 * @param journalProblem why the journal could not be read to the end, when it could not
 */
public record StoreCheckReport(Path folder, long tasks, long recordsReplayed,
    int collectionsCompared, long entriesCompared, long differencesFound,
    List<Difference> differences, long millis, Optional<String> journalProblem) {

  /** What differs between the live index and the journal's. */
  public enum Kind {
    /** The journal has the entry, the index does not. */
    MISSING_IN_INDEX("missing in index"),
    /** The index has an entry the journal does not. */
    EXTRA_IN_INDEX("extra in index"),
    /** Both have the key with other values. */
    DIFFERENT_VALUE("different value"),
    /** Keys the index orders as equal but that differ. */
    DIFFERENT_KEY("different key");

    private final String words;

    Kind(String words) {
      this.words = words;
    }

    /** For people, e.g. {@code missing in index}. */
    public String words() {
      return words;
    }
  }

  /**
   * One difference.
   *
   * @param collection the index collection, e.g. {@code tasks} or {@code due}
   * @param key the entry's key as text
   * @param kind what differs
   * @param detail more about it, e.g. the fields of a task that differ; may be empty
   */
  public record Difference(String collection, String key, Kind kind, String detail) {

    /** One line for people. */
    public String summary() {
      return collection + " " + key + ": " + kind.words() + (detail.isEmpty() ? "" : " (" + detail
          + ")");
    }
  }

  public StoreCheckReport {
    differences = List.copyOf(differences);
  }

  /** True when the journal was read to its end and the index holds exactly what it says. */
  public boolean matches() {
    return journalProblem.isEmpty() && differencesFound == 0;
  }
}

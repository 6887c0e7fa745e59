package dev.fsm.store.embedded.index;

import org.mapdb.BTreeMap;
import org.mapdb.DBException;

/** The index file's format and the journal record a clean close left it at. */
public final class IndexMeta {

  /**
   * Bumped when the index's layout changes; an index of another format is rebuilt. 7: keys
   * stored as the bytes they add to the key before them ({@link KeySerializer}), task values
   * without their ids (their keys) and deflated when that is shorter ({@link TaskValues}). 8:
   * values in record format 3 (a task's last change), so that an index an older fsm wrote,
   * whose values a check would find encoded otherwise than a rebuild's, is rebuilt once.
   */
  public static final long FORMAT = 8;

  private static final String FORMAT_KEY = "format";
  private static final String CLOSED_AT_KEY = "closedAtJournalRecord";

  private final BTreeMap<String, Long> meta;

  IndexMeta(BTreeMap<String, Long> meta) {
    this.meta = meta;
  }

  /** Notes this fsm's format in a new index. */
  void stamp() {
    meta.put(FORMAT_KEY, FORMAT);
  }

  /** An index of another format than this fsm's: not damaged, but rebuilt all the same. */
  public static final class OtherFormat extends DBException.DataCorruption {
    private final Long found;

    OtherFormat(Long found) {
      super("it is in index format " + found + ", not " + FORMAT);
      this.found = found;
    }

    /** What it says of the index file {@code file}: in which format it is. */
    public String of(String file) {
      return file + " is in index format " + found + ", not " + FORMAT;
    }
  }

  /** Throws when the index is of another format than this fsm's, which it then rebuilds. */
  void checkFormat() {
    if (!Long.valueOf(FORMAT).equals(meta.get(FORMAT_KEY))) {
      throw new OtherFormat(meta.get(FORMAT_KEY));
    }
  }

  /** Throws unless a clean close left the index at journal record {@code journalSequence}. */
  void checkClosedAt(long journalSequence) {
    Long closedAt = meta.get(CLOSED_AT_KEY);
    if (closedAt == null || closedAt != journalSequence) {
      throw new DBException.DataCorruption("it was closed at journal record " + closedAt
          + ", not " + journalSequence);
    }
  }

  /** Notes the journal record the index reflects, at a clean close. */
  void closedAt(long journalSequence) {
    meta.put(CLOSED_AT_KEY, journalSequence);
  }

  /** Forgets the clean close. */
  void inUse() {
    meta.remove(CLOSED_AT_KEY);
  }
}

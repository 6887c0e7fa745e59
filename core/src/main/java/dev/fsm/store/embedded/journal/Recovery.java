package dev.fsm.store.embedded.journal;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * What opening a journal found.
 *
 * @param segments the segment files kept
 * @param firstSequence the sequence of the oldest record kept (or of the next record, when empty)
 * @param lastSequence the sequence of the newest record kept, 0 when there has never been one
 * @param cut where a damaged or torn segment was cut, if one was
 * @param deletedSegments later segments deleted because damage before them was accepted
 * @param deletedRecords how many records those segments held
 */
public record Recovery(int segments, long firstSequence, long lastSequence, Optional<Cut> cut,
    List<Path> deletedSegments, long deletedRecords) {

  public Recovery {
    deletedSegments = List.copyOf(deletedSegments);
  }

  /** True when the journal was opened exactly as it was left. */
  public boolean clean() {
    return cut.isEmpty();
  }

  /** One line for the user saying what was found and done. */
  public String summary() {
    String kept = lastSequence < firstSequence
        ? "no records"
        : String.format(Locale.ROOT, "records %d to %d", firstSequence, lastSequence);
    if (cut.isEmpty()) {
      return String.format(Locale.ROOT, "journal: %d segment%s, %s", segments,
          segments == 1 ? "" : "s", kept);
    }
    Cut c = cut.get();
    StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
        "journal: cut %s at byte %d (%s), %d byte%s removed", c.file().getFileName(), c.offset(),
        c.reason(), c.bytesCut(), c.bytesCut() == 1 ? "" : "s"));
    if (!deletedSegments.isEmpty()) {
      line.append(String.format(Locale.ROOT, "; deleted %d later segment%s holding %d records",
          deletedSegments.size(), deletedSegments.size() == 1 ? "" : "s", deletedRecords));
    }
    return line.append("; kept ").append(kept).toString();
  }
}

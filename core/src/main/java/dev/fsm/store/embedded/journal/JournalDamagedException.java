package dev.fsm.store.embedded.journal;

import dev.fsm.store.StoreDamagedException;
import java.nio.file.Path;

/** A journal segment is damaged where cutting it would lose records that come after. */
public class JournalDamagedException extends StoreDamagedException {

  private final transient Path file;
  private final long offset;
  private final String reason;

  public JournalDamagedException(String message, Path file, long offset, String reason) {
    super(message, String.valueOf(file), offset, reason);
    this.file = file;
    this.offset = offset;
    this.reason = reason;
  }

  /** The damaged segment. */
  public Path file() {
    return file;
  }

  /** The byte where the damage starts. */
  public long offset() {
    return offset;
  }

  /** What is wrong there, such as "CRC mismatch". */
  public String reason() {
    return reason;
  }
}

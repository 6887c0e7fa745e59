package dev.fsm.store.embedded.journal;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What the journal's note of how far it got says ({@code journal/reached}, see {@link
 * ReachedMark}).
 *
 * @param file the note's file
 * @param sequence the newest record it names; empty when there is no note or it is damaged
 * @param damage why it is unreadable, when it is there but damaged
 */
public record JournalNote(Path file, OptionalLong sequence, Optional<String> damage) {

  /**
   * The record the note names, empty when there is none.
   *
   * @throws JournalDamagedException when the note is there but damaged: it is created whole
   *     and rewritten in place as one 16-byte write, so damage is the disk's or another
   *     program's, and without it fsm cannot tell whether records went from the journal's end
   */
  OptionalLong checked() {
    if (damage.isPresent()) {
      throw new JournalDamagedException(String.format(Locale.ROOT, "the journal's note %s of"
          + " how far it got is damaged (%s): without it fsm cannot tell whether records went"
          + " from the journal's end, so it opened nothing and changed nothing. %s", file,
          damage.get(), JournalRecovery.REPAIR), file, 0, damage.get());
    }
    return sequence;
  }
}

package dev.fsm.store.embedded.journal;

import java.io.IOException;

/** Breaks a journal as a failing disk would, for tests of what the store above it does. */
public final class JournalFaults {

  private JournalFaults() {}

  public static void failDisk(Journal journal) throws IOException {
    journal.simulateDiskFailure();
  }
}

package dev.fsm.bench;

import dev.fsm.store.embedded.journal.Journal;
import dev.fsm.store.embedded.journal.JournalOptions;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The baseline: a journal alone, written by concurrent writers that each append a record and
 * wait until it is durable, again and again. The store cannot be faster than this.
 */
final class LogBench {

  private LogBench() {}

  /** Durable appends of {@code recordBytes}-byte records by {@code writers} writers. */
  static Throughput run(Path folder, int writers, double seconds, int recordBytes)
      throws IOException {
    byte[] record = new byte[recordBytes];
    Arrays.fill(record, (byte) 'x');
    try (Journal journal = Journal.open(folder, JournalOptions.defaults())) {
      return Writers.closedLoop(writers, seconds, writer -> {
        journal.append(record).join();
        return 1;
      });
    }
  }
}

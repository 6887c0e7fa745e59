package dev.fsm.store.transfer;

import dev.fsm.store.MachineVersion;
import dev.fsm.task.TaskHistory;
import java.time.Instant;

/** One line of an export file ({@code docs/export-format.md}). */
public sealed interface TransferRecord {

  /**
   * The first line: which format and version, which fsm wrote it and when.
   *
   * @param version the format's version ({@link TransferFormat#VERSION} when written)
   */
  record Header(int version, String fsm, Instant exportedAt) implements TransferRecord {}

  /** A machine version, as {@code Store.allVersions()} gives it. */
  record Version(MachineVersion version) implements TransferRecord {}

  /** A task's snapshot with its whole history. */
  record TaskLine(TaskHistory task) implements TransferRecord {}

  /** The last line: how many of each the file holds, so a cut-short file is told apart. */
  record End(TransferCounts counts) implements TransferRecord {}
}

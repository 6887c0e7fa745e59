package dev.fsm.operations;

import dev.fsm.store.MachineVersion;
import dev.fsm.store.TaskCount;
import dev.fsm.store.transfer.ExportPage;
import dev.fsm.store.transfer.ExportSource;
import dev.fsm.store.transfer.ImportTarget;
import dev.fsm.task.TaskHistory;
import java.time.Instant;
import java.util.List;
import java.util.Set;

/**
 * Export and import through {@link Operations}: the store opened here, or the one a runner
 * serves, which they then read and write through its control socket.
 */
public final class Transfers {

  private Transfers() {}

  /** What {@code fsm store export} reads, through {@code operations}. */
  public static ExportSource exportFrom(Operations operations) {
    return new ExportSource() {
      @Override
      public List<MachineVersion> allVersions() {
        return operations.allVersions();
      }

      @Override
      public long taskCount() {
        return operations.counts().stream().mapToLong(TaskCount::count).sum();
      }

      @Override
      public ExportPage page(String after, int limit) {
        return operations.exportPage(after, limit);
      }
    };
  }

  /** What {@code fsm store import} writes into, through {@code operations}. */
  public static ImportTarget importInto(Operations operations) {
    return new ImportTarget() {
      @Override
      public List<MachineVersion> versions(String machine) {
        return operations.versions(machine);
      }

      @Override
      public Set<String> taken(List<String> ids) {
        return Set.copyOf(operations.takenIds(ids));
      }

      @Override
      public MachineVersion register(String machine, String definition, Instant registered) {
        return operations.importVersion(machine, definition, registered);
      }

      @Override
      public void restore(List<TaskHistory> tasks) {
        operations.importTasks(tasks);
      }
    };
  }
}

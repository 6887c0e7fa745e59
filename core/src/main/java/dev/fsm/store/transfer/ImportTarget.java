package dev.fsm.store.transfer;

import dev.fsm.store.MachineVersion;
import dev.fsm.store.Store;
import dev.fsm.task.TaskHistory;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What an import writes into: a store opened here ({@link #of}), or one a runner serves, written
 * through its control socket a batch at a time.
 */
public interface ImportTarget {

  /** A machine's versions, oldest first; empty for a machine the store does not have. */
  List<MachineVersion> versions(String machine);

  /** Those of {@code ids} that name a task the store has. */
  Set<String> taken(List<String> ids);

  /** Registers a machine version as {@link Store#register} does. */
  MachineVersion register(String machine, String definition, Instant registered);

  /**
   * Writes tasks with their histories, all or none, as {@link Store#restore} does.
   *
   * @throws dev.fsm.store.TaskExistsException when an id is taken
   */
  void restore(List<TaskHistory> tasks);

  /** Imports into {@code store}, through the {@link Store} interface only. */
  static ImportTarget of(Store store) {
    return new ImportTarget() {
      @Override
      public List<MachineVersion> versions(String machine) {
        return store.versions(machine);
      }

      @Override
      public Set<String> taken(List<String> ids) {
        return ids.stream().filter(id -> store.get(id).isPresent()).collect(Collectors.toSet());
      }

      @Override
      public MachineVersion register(String machine, String definition, Instant registered) {
        return store.register(machine, definition, registered);
      }

      @Override
      public void restore(List<TaskHistory> tasks) {
        store.restore(tasks);
      }
    };
  }
}

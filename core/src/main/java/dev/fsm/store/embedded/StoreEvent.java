package dev.fsm.store.embedded;

import dev.fsm.store.MachineVersion;
import dev.fsm.task.Task;
import dev.fsm.task.Transition;
import java.util.List;

/**
 * What the embedded store writes to its journal: every change, replayable in order to rebuild
 * the index. One journal record holds one event.
 */
public sealed interface StoreEvent {

  /** Tasks were created, all together. */
  record Created(List<Task> tasks) implements StoreEvent {
    public Created {
      tasks = List.copyOf(tasks);
    }
  }

  /** A task changed: its new snapshot, with the history entry that explains it. */
  record Changed(Task task, Transition entry) implements StoreEvent {}

  /** Tasks were leased to a runner (claims and renewals), without history. */
  record Leased(List<Task> tasks) implements StoreEvent {
    public Leased {
      tasks = List.copyOf(tasks);
    }
  }

  /** A machine version was registered. */
  record Registered(MachineVersion version) implements StoreEvent {}
}

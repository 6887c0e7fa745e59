package dev.fsm.store.embedded.event;

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

  /**
   * A task changed: its new snapshot, with the history entry that explains it and that entry's
   * place in the task's history (counting from 0), so that applying the event twice, as a replay
   * over a checkpoint taken while the store ran may do, adds the entry once.
   */
  record Changed(Task task, Transition entry, int historyIndex) implements StoreEvent {}

  /**
   * Tasks were leased to a runner: written by stores of earlier versions, read from their
   * journals and ignored, since leases now live on the heap ({@code Leases}).
   */
  record Leased(List<Task> tasks) implements StoreEvent {
    public Leased {
      tasks = List.copyOf(tasks);
    }
  }

  /** A task as a checkpoint found it, with its whole history: only ever in snapshots. */
  record Restored(Task task, List<Transition> history) implements StoreEvent {
    public Restored {
      history = List.copyOf(history);
    }
  }

  /**
   * Terminal tasks were purged, all together: each is gone with its history, and its id may be
   * used again by a later {@code Created}. Only ever in the journal: a checkpoint after it holds
   * none of them.
   */
  record Purged(List<String> ids) implements StoreEvent {
    public Purged {
      ids = List.copyOf(ids);
    }
  }

  /**
   * Tasks were imported from another store, all together, each as {@link Restored} holds one:
   * its snapshot (without a lease) and its whole history. Only ever in the journal.
   */
  record Imported(List<Restored> tasks) implements StoreEvent {
    public Imported {
      tasks = List.copyOf(tasks);
    }
  }

  /** A machine version was registered. */
  record Registered(MachineVersion version) implements StoreEvent {}
}

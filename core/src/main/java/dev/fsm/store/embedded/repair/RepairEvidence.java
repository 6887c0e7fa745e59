package dev.fsm.store.embedded.repair;

import dev.fsm.store.embedded.event.StoreEvent;
import dev.fsm.task.Task;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What sound records show of each task, for a repair to tell what it could not recover: a task
 * whose creation no record holds, or a history place below one a record holds that no record
 * fills, lost something. Memory grows with the tasks (an id and a few words each).
 */
final class RepairEvidence {

  /** One task's evidence. */
  static final class Of {
    /** The whole task with its first {@code baseLength} entries, from a snapshot or index. */
    boolean base;
    int baseLength;
    boolean created;
    /** Purged by a record after the basis: what the basis held of it is gone on purpose. */
    boolean purged;
    final BitSet places = new BitSet();

    /** How many history entries the evidence says the task had. */
    int length() {
      return Math.max(baseLength, places.length());
    }

    /** True when neither a base nor a creation record shows the task was created. */
    boolean creationLost() {
      return !base && !created;
    }

    /** History places below {@code length} that no record holds, from 0. */
    List<Integer> missingBelow(int length) {
      List<Integer> missing = new ArrayList<>();
      for (int p = baseLength; p < length; p++) {
        if (!places.get(p)) {
          missing.add(p);
        }
      }
      return missing;
    }
  }

  private final Map<String, Of> tasks = new HashMap<>();

  /** A task as a snapshot or index holds it, with its whole history. */
  void base(String id, int historyLength) {
    Of o = of(id);
    if (o.purged) {
      return;
    }
    o.base = true;
    o.baseLength = Math.max(o.baseLength, historyLength);
  }

  /** A journal record's event. */
  void journal(StoreEvent event) {
    if (event instanceof StoreEvent.Created c) {
      for (Task t : c.tasks()) {
        of(t.id()).created = true;
      }
    } else if (event instanceof StoreEvent.Changed c) {
      of(c.task().id()).places.set(c.historyIndex());
    } else if (event instanceof StoreEvent.Restored r) {
      base(r.task().id(), r.history().size());
    } else if (event instanceof StoreEvent.Imported i) {
      // Created whole by this record, with every history place it holds.
      for (StoreEvent.Restored r : i.tasks()) {
        Of o = of(r.task().id());
        o.created = true;
        o.places.set(0, r.history().size());
      }
    } else if (event instanceof StoreEvent.Purged p) {
      // Its life so far ended here; a later creation of the same id starts a new one.
      for (String id : p.ids()) {
        Of fresh = new Of();
        fresh.purged = true;
        tasks.put(id, fresh);
      }
    }
  }

  /** The task's evidence; null when no record names it. */
  Of get(String id) {
    return tasks.get(id);
  }

  private Of of(String id) {
    return tasks.computeIfAbsent(id, k -> new Of());
  }
}

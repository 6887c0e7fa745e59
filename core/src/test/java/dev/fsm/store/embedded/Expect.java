package dev.fsm.store.embedded;

import dev.fsm.store.Store;
import dev.fsm.task.Task;
import dev.fsm.task.Transition;
import java.util.List;

/**
 * What the crash suite compares after a crash, as one compact word per key, computed the same
 * way by the writer (from what it intends) and by the test (from what a store holds): a task's
 * state, status, attempt, context, history length and a hash of its history's events, or a
 * machine's number of versions. Leases are left out: every reopen drops them.
 */
final class Expect {

  /** The word for a task that does not exist. */
  static final String ABSENT = "absent";

  private static final String MACHINE = "machine:";

  private Expect() {}

  /** A task's word, given its history's length and {@link #fold} of its entries. */
  static String task(Task t, int historyLength, int historyHash) {
    return t.state() + "," + t.status().word() + "," + t.attempt() + "," + t.context() + ","
        + historyLength + "," + Integer.toHexString(historyHash);
  }

  /** The history hash after one more entry. */
  static int fold(int hash, Transition entry) {
    return 31 * hash + (entry.event() + ">" + entry.to() + "@" + entry.attempt()).hashCode();
  }

  /** The hash of a whole history. */
  static int hash(List<Transition> history) {
    int h = 1;
    for (Transition t : history) {
      h = fold(h, t);
    }
    return h;
  }

  /** The key under which a machine's version count is expected. */
  static String machineKey(String machine) {
    return MACHINE + machine;
  }

  static String versions(int count) {
    return "versions=" + count;
  }

  /** The word for a key before anything was done to it. */
  static String initial(String key) {
    return key.startsWith(MACHINE) ? versions(0) : ABSENT;
  }

  /** What {@code store} holds for a key: a task id or a {@link #machineKey}. */
  static String observe(Store store, String key) {
    if (key.startsWith(MACHINE)) {
      return versions(store.versions(key.substring(MACHINE.length())).size());
    }
    return store.get(key).map(t -> {
      List<Transition> history = store.history(key);
      return task(t, history.size(), hash(history));
    }).orElse(ABSENT);
  }
}

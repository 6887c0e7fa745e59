package dev.fsm.cli;

import dev.fsm.store.TaskQuery;
import dev.fsm.access.StoreAccess;
import dev.fsm.store.Store;
import dev.fsm.store.StorePurpose;
import dev.fsm.task.Task;
import dev.fsm.task.Transition;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads every task and history of a store (a closed embedded one, or a database) in the test's
 * own process, and says
 * whether a history is whole: the moves runners recorded chain from state to state along exactly
 * the expected path, none skipped and none recorded twice.
 */
final class Histories {

  /** A task as the store holds it, with its history. */
  record Entry(Task task, List<Transition> history) {}

  private Histories() {}

  /** Every task of the embedded store in this folder, by id. The store must not be in use. */
  static Map<String, Entry> read(Path store) {
    return read(store.toString());
  }

  /**
   * Every task of the store {@code --store} would name with {@code location} (a folder or a
   * database URL), by id. An embedded store must not be in use.
   */
  static Map<String, Entry> read(String location) {
    Map<String, Entry> all = new LinkedHashMap<>();
    try (Store s = open(location)) {
      Optional<String> after = Optional.empty();
      while (true) {
        List<Task> page = s.list(new TaskQuery(Optional.empty(), Optional.empty(),
            Optional.empty(), after, 500));
        for (Task t : page) {
          all.put(t.id(), new Entry(t, s.history(t.id())));
        }
        if (page.size() < 500) {
          return all;
        }
        after = Optional.of(page.get(page.size() - 1).id());
      }
    }
  }

  /**
   * The store {@code --store} would name with {@code location}, opened for reading in the
   * test's own process, e.g. to poll it while runners work without a JVM start a poll.
   */
  static Store open(String location) {
    StoreAccess access = StoreAccess.standard();
    StoreAccess.Located at = access.locate(location, StorePurpose.READ, "test", false);
    return access.store(at, StorePurpose.READ, "test", notice -> { });
  }

  /** The states runners moved a task through: the first move's start, then each move's end. */
  static List<String> runnerPath(List<Transition> history) {
    List<String> path = new ArrayList<>();
    for (Transition t : history) {
      if (!t.by().startsWith("runner:") || t.from().equals(t.to())) {
        continue;
      }
      if (path.isEmpty()) {
        path.add(t.from());
      }
      path.add(t.to());
    }
    return path;
  }

  /**
   * Why the history is not whole, or empty when it is: the runners' moves must go exactly along
   * {@code expected}, each move starting where the previous one ended.
   */
  static Optional<String> problem(List<Transition> history, List<String> expected) {
    String last = null;
    for (Transition t : history) {
      if (!t.by().startsWith("runner:") || t.from().equals(t.to())) {
        continue;
      }
      if (last != null && !t.from().equals(last)) {
        return Optional.of("a move from `" + t.from() + "` follows one that ended in `" + last
            + "`: " + history);
      }
      last = t.to();
    }
    List<String> path = runnerPath(history);
    if (!path.equals(expected)) {
      return Optional.of("runners moved it along " + path + ", not " + expected + ": " + history);
    }
    return Optional.empty();
  }
}

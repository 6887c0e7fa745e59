package dev.fsm.engine;

import dev.fsm.store.Store;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Transition;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/** Reads the histories of a machine's newest tasks, newest first (ids sort by creation). */
final class NewestHistories {

  private static final int PAGE = 512;

  private NewestHistories() {}

  /**
   * Hands the history of each of the machine's tasks, newest task first, to {@code each} until
   * it returns false or {@code maxTasks} histories have been read.
   *
   * @return how many histories were read
   */
  static int read(Store store, String machine, int maxTasks, Predicate<List<Transition>> each) {
    Optional<String> after = Optional.empty();
    int read = 0;
    while (read < maxTasks) {
      int size = Math.min(PAGE, maxTasks - read);
      // Ids alone: a store can list them without reading each task.
      List<String> page = store.ids(new TaskQuery(Optional.of(machine), Optional.empty(),
          Optional.empty(), after, size, TaskQuery.Order.DESCENDING));
      Map<String, List<Transition>> histories = store.histories(page);
      for (List<Transition> history : histories.values()) {
        read++;
        if (!each.test(history)) {
          return read;
        }
      }
      if (page.size() < size) {
        return read;
      }
      after = Optional.of(page.get(page.size() - 1));
    }
    return read;
  }
}

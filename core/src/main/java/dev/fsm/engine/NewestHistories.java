package dev.fsm.engine;

import dev.fsm.store.Store;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Transition;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Reads the histories of a machine's newest tasks, newest first (ids sort by creation), a few at
 * a time and up to a budget of entries: tasks that loop for days have thousands of entries each,
 * and reading 512 of them at once ran a runner out of heap answering {@code fsm stats}.
 */
final class NewestHistories {

  private static final int PAGE = 512;
  /** Histories read from the store at a time. */
  private static final int BATCH = 16;
  /** Entries read at most in all: a sample of recent work, not all of it. */
  static final long MAX_ENTRIES = 250_000;
  /**
   * Tasks looked at, with or without a history, per history wanted at most, by {@code fsm
   * stats}: a runner seeding its breakers and timeouts looks at no more than it wants, as each
   * seed holds up a claim or a worker (five times as many made a fresh 20,000-task bench's
   * runner 10% slower).
   */
  static final int PASSED_OVER = 5;

  private NewestHistories() {}

  /**
   * Hands the history of each of the machine's tasks that has one, newest task first, to {@code
   * each} until it returns false, {@code maxTasks} histories have been read, or they held {@link
   * #MAX_ENTRIES} entries. Tasks with no history yet (a backlog just started) are passed over
   * and not counted, so they hide less of the work before them; at most {@code lookFactor}
   * times {@code maxTasks} tasks are looked at in all ({@link #PASSED_OVER} for a reader that
   * may take its time, 1 for one that must not).
   *
   * @return how many histories were read
   */
  static int read(Store store, String machine, int maxTasks, int lookFactor,
      Predicate<List<Transition>> each) {
    Optional<String> after = Optional.empty();
    int read = 0;
    long looked = 0;
    long lookAtMost = (long) maxTasks * lookFactor;
    long entries = 0;
    while (read < maxTasks && looked < lookAtMost) {
      int size = (int) Math.min(PAGE, lookAtMost - looked);
      // Ids alone: a store can list them without reading each task.
      List<String> page = store.ids(new TaskQuery(Optional.of(machine), Optional.empty(),
          Optional.empty(), after, size, TaskQuery.Order.DESCENDING));
      looked += page.size();
      for (int from = 0; from < page.size(); from += BATCH) {
        Map<String, List<Transition>> histories =
            store.histories(page.subList(from, Math.min(page.size(), from + BATCH)));
        for (List<Transition> history : histories.values()) {
          if (history.isEmpty()) {
            continue;
          }
          read++;
          entries += history.size();
          if (!each.test(history) || entries >= MAX_ENTRIES || read >= maxTasks) {
            return read;
          }
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

package dev.fsm.store.embedded.check;

import dev.fsm.FsmException;
import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.store.embedded.journal.Journal;
import dev.fsm.store.embedded.recovery.IndexOpening;
import dev.fsm.store.embedded.recovery.RebuildProgress;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * The work of {@code fsm store check}: rebuilds an index from the journal into a file of its own
 * and compares it with the live one, collection by collection and entry by entry.
 */
public final class IndexCheck {

  private IndexCheck() {}

  /**
   * Builds a fresh index from {@code journal} into {@code file}, deleted afterwards, and compares
   * it with {@code live}; the caller holds the store's lock so nothing changes meanwhile.
   */
  public static StoreCheckReport compare(Path folder, Journal journal, TaskIndex live, Path file,
      RebuildProgress progress) {
    long started = System.nanoTime();
    Comparison comparison = new Comparison();
    long replayed = 0;
    long tasks = 0;
    Optional<String> journalProblem = Optional.empty();
    try {
      Files.deleteIfExists(file);
      try {
        IndexOpening.Rebuilt built = null;
        try {
          built = IndexOpening.rebuild(folder, journal, file, progress);
        } catch (FsmException e) {
          journalProblem = Optional.of(e.getMessage());
        }
        if (built != null) {
          try (TaskIndex fresh = built.index()) {
            replayed = built.records();
            SortedMap<String, Object> expected = fresh.collections();
            SortedMap<String, Object> actual = live.collections();
            for (String name : union(expected.keySet(), actual.keySet())) {
              comparison.compare(name, expected.get(name), actual.get(name));
            }
            tasks = ((Map<?, ?>) expected.getOrDefault("tasks", Map.of())).size();
          }
        }
      } finally {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      journalProblem = Optional.of("the journal of store " + folder
          + " could not be read: " + e);
    }
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    return new StoreCheckReport(folder, tasks, replayed, comparison.collections(),
        comparison.entries(), comparison.differencesFound(), comparison.differences(), millis,
        journalProblem);
  }

  private static List<String> union(Set<String> a, Set<String> b) {
    TreeSet<String> all = new TreeSet<>(a);
    all.addAll(b);
    return List.copyOf(all);
  }
}

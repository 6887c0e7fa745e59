package dev.fsm.store.embedded;

import dev.fsm.FsmException;
import dev.fsm.store.embedded.check.Comparison;
import dev.fsm.store.embedded.check.StoreCheckReport;
import dev.fsm.store.embedded.index.TaskIndex;
import dev.fsm.store.embedded.recovery.IndexOpening;
import dev.fsm.store.embedded.recovery.RebuildProgress;
import dev.fsm.store.embedded.recovery.TimeBound;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Verifies an open embedded store's index against its journal ({@code fsm store check}): builds a
 * fresh index from the journal beside the live one, as an open with a rebuild does, and compares
 * the two collection by collection and entry by entry. Meaningful while no task is leased, as
 * after an open: a leased task is out of the live due queue, and a rebuild knows no leases.
 */
public final class StoreCheck {

  /** The temporary index's name in the store folder; deleted after every check. */
  static final String FILE = "index.check.db";

  private StoreCheck() {}

  /** A check that did not finish in time; a thread may still be stuck in the index. */
  public static final class Stuck extends FsmException {

    Stuck(String message) {
      super(message);
    }
  }

  /** True when {@code folder} holds an embedded store (its journal), without creating one. */
  public static boolean holdsStore(Path folder) {
    return Files.isDirectory(folder.resolve(EmbeddedStore.JOURNAL));
  }

  /**
   * A time bound that grows with the journal: a minute, plus a millisecond per record, far
   * slower than any sound rebuild.
   */
  public static Duration defaultLimit(EmbeddedStore store) {
    return Duration.ofMinutes(1).plusMillis(store.journal().lastSequence());
  }

  /**
   * Rebuilds an index from the journal into {@value #FILE} and compares it with the store's,
   * under the store's lock so nothing changes meanwhile.
   *
   * @throws Stuck when the check does not finish within {@code limit}; the store's lock may
   *     then be held for good, so the caller should leave the store and exit
   */
  public static StoreCheckReport run(EmbeddedStore store, Duration limit,
      RebuildProgress progress) {
    Path file = store.folder().resolve(FILE);
    try {
      return TimeBound.call("fsm-store-check", limit,
          () -> store.locked(() -> checkInto(store, file, progress)), late -> { });
    } catch (TimeBound.Exceeded e) {
      throw new Stuck("checking store " + store.folder() + " did not finish within "
          + limit.toMillis() + " ms: its index may be damaged so that reading it loops; run"
          + " `fsm store rebuild` to build it again from the journal");
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof FsmException f) {
        throw f;
      }
      throw new FsmException("checking store " + store.folder() + " failed (" + cause + ");"
          + " run `fsm store rebuild` to build its index again from the journal", cause);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FsmException("checking store " + store.folder() + " was interrupted");
    }
  }

  private static StoreCheckReport checkInto(EmbeddedStore store, Path file,
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
          built = IndexOpening.rebuild(store.folder(), store.journal(), file, progress);
        } catch (FsmException e) {
          journalProblem = Optional.of(e.getMessage());
        }
        if (built != null) {
          try (TaskIndex fresh = built.index()) {
            replayed = built.records();
            SortedMap<String, Object> expected = fresh.collections();
            SortedMap<String, Object> actual = store.index().collections();
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
      journalProblem = Optional.of("the journal of store " + store.folder()
          + " could not be read: " + e);
    }
    long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
    return new StoreCheckReport(store.folder(), tasks, replayed, comparison.collections(),
        comparison.entries(), comparison.differencesFound(), comparison.differences(), millis,
        journalProblem);
  }

  private static List<String> union(Set<String> a, Set<String> b) {
    TreeSet<String> all = new TreeSet<>(a);
    all.addAll(b);
    return List.copyOf(all);
  }

  /** An iterator over a map's entries or a set's members (with null values). */
  public static Iterator<Map.Entry<Object, Object>> entries(Object collection) {
    if (collection instanceof Map<?, ?> map) {
      @SuppressWarnings("unchecked")
      Iterator<Map.Entry<Object, Object>> it =
          ((Map<Object, Object>) map).entrySet().iterator();
      return it;
    }
    Iterator<?> members = ((Iterable<?>) collection).iterator();
    return new Iterator<>() {
      @Override
      public boolean hasNext() {
        return members.hasNext();
      }

      @Override
      public Map.Entry<Object, Object> next() {
        return new AbstractMap.SimpleImmutableEntry<>(members.next(), null);
      }
    };
  }
}

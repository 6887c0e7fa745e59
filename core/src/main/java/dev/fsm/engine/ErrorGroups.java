package dev.fsm.engine;

import dev.fsm.store.ErrorEntry;
import dev.fsm.store.ErrorQuery;
import dev.fsm.store.Store;
import dev.fsm.task.Transition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Groups attempt errors for {@code fsm errors}: by machine, state and message, masked
 * ({@link ErrorMasks}) and without the retry policy's decision that follows it in the history
 * (so one cause is one group whether it was retried or gave up), most frequent first (then the
 * most recent, then by pattern). Fed one
 * entry at a time, so a store streams its errors through it; not thread-safe.
 */
public final class ErrorGroups implements Consumer<ErrorEntry> {

  /** Masked messages remembered: the same raw message recurs, and masking costs regexes. */
  private static final int MASKS_KEPT = 10_000;

  private static final Comparator<ErrorGroup> ORDER = Comparator
      .comparingLong(ErrorGroup::count).reversed()
      .thenComparing(ErrorGroup::lastSeen, Comparator.reverseOrder())
      .thenComparing(ErrorGroup::machine).thenComparing(ErrorGroup::state)
      .thenComparing(ErrorGroup::pattern);

  private final Map<String, String> masks = new HashMap<>();
  private final Map<Key, Tally> groups = new HashMap<>();
  private long errors;

  private record Key(String machine, String state, String pattern) {}

  /** One group as it fills. */
  private static final class Tally {
    long count;
    final Set<String> tasks = new HashSet<>();
    Instant first;
    Instant last;
    String example;
    String exampleTask;
  }

  /** The attempt errors {@code query} matches in {@code store}, grouped; {@code limit} groups. */
  public static ErrorReport compute(Store store, ErrorQuery query, int limit) {
    ErrorGroups groups = new ErrorGroups();
    store.errors(query, groups);
    return groups.report(query.since(), limit);
  }

  @Override
  public void accept(ErrorEntry e) {
    Transition t = e.entry();
    if (masks.size() >= MASKS_KEPT) {
      masks.clear();
    }
    String pattern = masks.computeIfAbsent(ErrorMasks.maskId(t.reason(), e.taskId()),
        reason -> ErrorMasks.mask(ErrorPolicy.cause(reason)));
    Tally g = groups.computeIfAbsent(new Key(e.machine(), t.from(), pattern), k -> new Tally());
    g.count++;
    g.tasks.add(e.taskId());
    if (g.first == null || t.time().isBefore(g.first)) {
      g.first = t.time();
    }
    // The newest is the example; ties go to the smaller task id, so the choice is stable.
    if (g.last == null || t.time().isAfter(g.last)
        || t.time().equals(g.last) && e.taskId().compareTo(g.exampleTask) < 0) {
      g.last = t.time();
      g.example = t.reason();
      g.exampleTask = e.taskId();
    }
    errors++;
  }

  /** The groups so far, most frequent first, at most {@code limit} of them. */
  public ErrorReport report(Instant since, int limit) {
    List<ErrorGroup> all = new ArrayList<>(groups.size());
    groups.forEach((k, g) -> all.add(new ErrorGroup(k.pattern(), k.machine(), k.state(),
        g.count, g.tasks.size(), g.first, g.last, g.example, g.exampleTask)));
    all.sort(ORDER);
    return new ErrorReport(since, errors, all.size(), all.subList(0, Math.min(limit, all.size())));
  }
}

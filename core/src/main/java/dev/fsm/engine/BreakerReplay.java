package dev.fsm.engine;

import dev.fsm.model.BreakerPolicy;
import dev.fsm.model.Machine;
import dev.fsm.store.Store;
import dev.fsm.task.AttemptErrors;
import dev.fsm.task.Transition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A machine's breaker as the attempts in the histories of its newest tasks, on every runner,
 * leave it: how a runner starts one (so a runner restarted while it was open keeps it open),
 * and how a command with no runner at hand shows one (PostgreSQL, where no runner serves it).
 */
public final class BreakerReplay {

  /** Newest tasks whose histories are read. */
  public static final int TASKS = 2_000;

  private BreakerReplay() {}

  /**
   * {@code breaker} with the machine's recent attempts replayed into it, as at {@code now}.
   *
   * @throws RuntimeException as the store's reads do
   */
  public static Breaker into(Breaker breaker, Store store, Machine m, Instant now) {
    return into(breaker, store, m, now, Instant.MIN);
  }

  /**
   * As {@link #into(Breaker, Store, Machine, Instant)}, with only the attempts that ended at or
   * after {@code since}: those after the runners' breaker last closed, as its count restarted.
   */
  public static Breaker into(Breaker breaker, Store store, Machine m, Instant now,
      Instant since) {
    Instant window = now.minus(m.breaker().window()).minus(m.breaker().cooldown()
        .multipliedBy(BreakerPolicy.MAX_COOLDOWN_FACTOR));
    Instant from = since.isAfter(window) ? since : window;
    List<Transition> ended = new ArrayList<>();
    NewestHistories.read(store, m.name(), TASKS, 1, history -> {
      for (Transition t : history) {
        if (!t.time().isBefore(from) && !t.time().isAfter(now)
            && AttemptResult.of(t, m.states().get(t.from())) != AttemptResult.NONE) {
          ended.add(t);
        }
      }
      return true;
    });
    ended.sort(Comparator.comparing(Transition::time));
    int n = 0;
    for (Transition t : ended) {
      // Each replayed attempt starts as it ends: half-open, it is the probe, as it was.
      String id = "seed-" + n++;
      breaker.started(id, t.time());
      breaker.ended(id, AttemptErrors.isError(t), t.time());
    }
    return breaker;
  }
}

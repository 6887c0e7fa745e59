package dev.fsm.engine;

import dev.fsm.store.Store;
import dev.fsm.task.Change;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.time.Instant;
import java.util.List;

/** Tasks with the histories earlier runners and operators left, written straight into a store. */
final class PastRuns {

  static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");
  static final String RUNNER = "runner:1@host/w1";

  private final Store store;

  PastRuns(Store store) {
    this.store = store;
  }

  /**
   * A task of {@code machine} that ended in {@code state}, with no history yet: completed, so a
   * runner over the store never claims it.
   */
  void task(String id, String machine, String state) {
    store.create(List.of(new Task(id, machine, "v1", state, TaskStatus.COMPLETED, "{}", 0,
        List.of(), T0, T0, null, null, null)));
  }

  /** An attempt a runner recorded: {@code event} ended it {@code seconds} after T0. */
  void ran(String id, String from, String event, String to, long seconds, long millis) {
    entry(id, new Transition(T0.plusSeconds(seconds), from, event, to, millis, 1, RUNNER, ""));
  }

  /** A command an operator sent, which is no attempt whatever its event. */
  void commanded(String id, String state, String command, long seconds) {
    entry(id, new Transition(T0.plusSeconds(seconds), state, command, state, 0, 0, "user:ann",
        ""));
  }

  private void entry(String id, Transition t) {
    store.update(id, task -> new Change(task, t));
  }
}

package dev.fsm.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.fsm.engine.OperatorListener;
import dev.fsm.store.memory.InMemoryStore;
import dev.fsm.task.Command;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What other processes did reaches this process's runner only for the tasks it holds. */
class OthersHeardTest {

  private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");

  private final List<String> heard = new ArrayList<>();
  private final OperatorListener runner = new OperatorListener() {
    @Override
    public void commandApplied(Task after, Command command) {
      heard.add(command.word() + " " + after.id());
    }

    @Override
    public void upgradePending(Task task) {
      heard.add("upgrade " + task.id());
    }

    @Override
    public void workArrived() {
      heard.add("work");
    }
  };

  @Test
  void commandsAndUpgradesOfHeldTasksReachTheRunnerAndEveryChangeWakesIt() {
    try (InMemoryStore store = new InMemoryStore()) {
      store.create(List.of(task("held"), task("other")));
      OthersHeard others = new OthersHeard(store, runner, Set.of("held")::contains);

      others.taskChanged("held", "pause");
      others.taskChanged("other", "kill");
      others.taskChanged("held", "upgrade");
      others.taskChanged("held", "approve");
      others.taskChanged("gone", "pause");
      others.workArrived();

      assertThat(heard).containsExactly("pause held", "work", "work", "upgrade held", "work",
          "work", "work", "work");
    }
  }

  private static Task task(String id) {
    return new Task(id, "order", "v1", "pay", TaskStatus.RUNNABLE, "{}", 0, List.of(), T0, T0,
        null, T0, null);
  }
}

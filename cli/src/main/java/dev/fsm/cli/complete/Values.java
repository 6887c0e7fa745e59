package dev.fsm.cli.complete;

import java.util.List;

/** The values completion looks up outside the command model: tasks, machines, states, events. */
public interface Values {

  /** Ids of tasks starting with {@code prefix}. */
  List<String> taskIds(String prefix);

  /** Names of machines in the machines folder or the store. */
  List<String> machines();

  /** States of one machine, or of every machine when {@code machine} is null. */
  List<String> states(String machine);

  /** Events the task's current state has edges for. */
  List<String> events(String taskId);

  /** States of the task's machine version a task can run in (not final), for redrive --to. */
  List<String> taskStates(String taskId);

  /** No values at all, for lines that need none. */
  Values NONE = new Values() {
    @Override
    public List<String> taskIds(String prefix) {
      return List.of();
    }

    @Override
    public List<String> machines() {
      return List.of();
    }

    @Override
    public List<String> states(String machine) {
      return List.of();
    }

    @Override
    public List<String> events(String taskId) {
      return List.of();
    }

    @Override
    public List<String> taskStates(String taskId) {
      return List.of();
    }
  };
}

package dev.fsm.action.api;

import java.time.Duration;
import java.util.Optional;

/** The task an {@link FsmAction} runs for, and the line to the runner while it runs. */
public interface ActionContext {

  /** The task's id. */
  String taskId();

  /** The machine's name. */
  String machine();

  /** The machine version the task is pinned to. */
  String version();

  /** The state whose action this is. */
  String state();

  /** The number of this attempt in the current state, from 1. */
  int attempt();

  /** The task's context: a JSON object, as text. */
  String contextJson();

  /** True once the runner asked this attempt to stop (pause, kill, release, timeout...). */
  boolean stopRequested();

  /**
   * The next operator command delivered to this attempt, as its word (such as {@code
   * checkpoint}), waiting at most {@code timeout} for one. Commands are kept in order from the
   * start of the attempt until taken.
   *
   * @return the command, or empty when none arrived in time
   * @throws InterruptedException when the attempt is stopped while waiting
   */
  Optional<String> nextCommand(Duration timeout) throws InterruptedException;
}

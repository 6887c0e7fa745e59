package dev.fsm.task;

import java.util.Locale;
import java.util.Optional;

/** Where a task stands, independent of its machine's states. */
public enum TaskStatus {
  /** Its action may run now; a runner claims it when its time has come. */
  RUNNABLE,
  /** Waiting until a time (a {@code sleep} command or a retry backoff), then runnable. */
  SLEEPING,
  /** Held by an operator until someone sends {@code run}. */
  PAUSED,
  /** Its action failed; the state's error policy decides between a retry and failing. */
  FAULT,
  /** Reached a final state with outcome completed, or was sent {@code complete}. Terminal. */
  COMPLETED,
  /** Reached a final state with outcome failed, or ran out of retries. Terminal. */
  FAILED,
  /** Stopped for good by {@code kill}. Terminal. */
  KILLED;

  /** True when no command changes the task and it is never scheduled again. */
  public boolean isTerminal() {
    return this == COMPLETED || this == FAILED || this == KILLED;
  }

  /** The word users type and see. */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** The status a user typed, if it is one. */
  public static Optional<TaskStatus> parse(String word) {
    for (TaskStatus s : values()) {
      if (s.word().equals(word)) {
        return Optional.of(s);
      }
    }
    return Optional.empty();
  }
}

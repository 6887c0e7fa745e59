package dev.fsm.task;

import java.util.Locale;
import java.util.Optional;

/** What an operator can send a task ({@code fsm send ID COMMAND}). */
public enum Command {
  /** Make it runnable now. */
  RUN,
  /** Hold it until {@code run}; stops a running action. */
  PAUSE,
  /** Hold it until a time ({@code --until}); stops a running action. */
  SLEEP,
  /** End it for good; stops a running action. */
  KILL,
  /** Record an error ({@code --reason}) and apply the error policy. */
  ERROR,
  /** End it as completed. */
  COMPLETE,
  /** Ask a running action to persist its work; the status does not change. */
  CHECKPOINT,
  /** Stop a running action and hand the task back to be claimed again. */
  RELEASE;

  /** The word users type and see. */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * True for the commands that stop a running action: all but {@code run} and {@code checkpoint}.
   * Each takes the task out of the runner's hands, so the attempt's outcome must not be recorded.
   */
  public boolean stopsRunningAction() {
    return this != RUN && this != CHECKPOINT;
  }

  /** The command a user typed, if it is one. */
  public static Optional<Command> parse(String word) {
    for (Command c : values()) {
      if (c.word().equals(word)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }
}

package dev.fsm.task;

import static dev.fsm.task.TaskStatus.COMPLETED;
import static dev.fsm.task.TaskStatus.FAILED;
import static dev.fsm.task.TaskStatus.FAULT;
import static dev.fsm.task.TaskStatus.KILLED;
import static dev.fsm.task.TaskStatus.PAUSED;
import static dev.fsm.task.TaskStatus.RUNNABLE;
import static dev.fsm.task.TaskStatus.SLEEPING;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What an operator can send a task ({@code fsm send ID COMMAND}), each with its rules as data:
 * the status it leads to from each status (SPEC section 3) and its effects, which {@link
 * Commands}, the operations, the runner and the CLI read instead of naming commands.
 */
public enum Command {
  /** Make it runnable now. */
  RUN(CommandRules.of()
      .move(RUNNABLE, RUNNABLE).move(SLEEPING, RUNNABLE).move(PAUSED, RUNNABLE)
      .due(CommandRules.Due.NOW).wakesRunner().alias("resume")),
  /**
   * Hold it until {@code run}; stops a running action, or with {@code --after-step} lets it finish
   * and record its step first.
   */
  PAUSE(CommandRules.of()
      .move(RUNNABLE, PAUSED).move(SLEEPING, PAUSED).move(PAUSED, PAUSED)
      .due(CommandRules.Due.CLEAR).stopsRunningAction().afterStep()),
  /** Hold it until a time ({@code --until}); stops a running action. */
  SLEEP(CommandRules.of()
      .move(RUNNABLE, SLEEPING).move(SLEEPING, SLEEPING).move(PAUSED, SLEEPING)
      .move(FAULT, SLEEPING)
      .due(CommandRules.Due.UNTIL).stopsRunningAction().wakesRunner()),
  /** End it for good; stops a running action. */
  KILL(CommandRules.of()
      .move(RUNNABLE, KILLED).move(SLEEPING, KILLED).move(PAUSED, KILLED)
      .due(CommandRules.Due.CLEAR).stopsRunningAction()),
  /** Record an error ({@code --reason}) and apply the error policy. */
  ERROR(CommandRules.of()
      .move(RUNNABLE, FAULT).move(SLEEPING, FAULT).move(FAULT, FAILED)
      .due(CommandRules.Due.CLAIM_NOW).errors(CommandRules.Errors.ADD_REASON)
      .stopsRunningAction().wakesRunner()),
  /** End it as completed. */
  COMPLETE(CommandRules.of()
      .move(RUNNABLE, COMPLETED)
      .due(CommandRules.Due.CLEAR).stopsRunningAction()),
  /** Ask a running action to persist its work; the status does not change. */
  CHECKPOINT(CommandRules.of()
      .move(RUNNABLE, RUNNABLE).move(SLEEPING, SLEEPING).move(PAUSED, PAUSED)
      .deliveredToAction().keepsPendingPause()),
  /**
   * Stop a running action and hand the task back to be claimed again (a pending pause then
   * pauses it when claimed).
   */
  RELEASE(CommandRules.of()
      .move(RUNNABLE, RUNNABLE).move(SLEEPING, SLEEPING).move(PAUSED, PAUSED)
      .due(CommandRules.Due.CLAIM_NOW).stopsRunningAction().wakesRunner().keepsPendingPause()),
  /**
   * Bring a failed or killed task back, runnable in the state where it stopped or in {@code
   * --to}, its errors cleared and its attempts counted anew.
   */
  REDRIVE(CommandRules.of()
      .move(FAILED, RUNNABLE).move(KILLED, RUNNABLE)
      .due(CommandRules.Due.NOW).errors(CommandRules.Errors.CLEAR).movesState()
      .wakesRunner());

  private final CommandRules rules;

  Command(CommandRules rules) {
    this.rules = rules;
  }

  /** The word users type and see. */
  public String word() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Other words users may type for it (e.g. {@code resume} for {@code run}). */
  public List<String> aliases() {
    return rules.aliases();
  }

  /** The status this command leads to from {@code from}, or empty when the table refuses. */
  public Optional<TaskStatus> next(TaskStatus from) {
    return Optional.ofNullable(rules.moves().get(from));
  }

  /** Its row of the table: from each status it accepts, the status it leads to. */
  public Map<TaskStatus, TaskStatus> moves() {
    return rules.moves();
  }

  /**
   * True for the commands that stop a running action. Each takes the task out of the runner's
   * hands, so the attempt's outcome must not be recorded.
   */
  public boolean stopsRunningAction() {
    return rules.isStopping();
  }

  /** True when a runner should look for work at once: the task may be claimable now. */
  public boolean wakesRunner() {
    return rules.isWaking();
  }

  /** True when a running action is handed the command rather than stopped or ignored. */
  public boolean deliveredToAction() {
    return rules.isDelivered();
  }

  /** How it changes the task's due time. */
  public CommandRules.Due due() {
    return rules.due();
  }

  /** How it changes the task's recent errors. */
  public CommandRules.Errors errors() {
    return rules.errors();
  }

  /** True when it needs {@code --until}: the due time it sets. */
  public boolean needsUntil() {
    return rules.due() == CommandRules.Due.UNTIL;
  }

  /** True when its {@code --reason} becomes the error it records, not only the history's. */
  public boolean reasonIsError() {
    return rules.errors() == CommandRules.Errors.ADD_REASON;
  }

  /**
   * True when it may put the task in another machine state ({@code --to STATE}), counting its
   * attempts anew there.
   */
  public boolean takesTo() {
    return rules.isMovingState();
  }

  /**
   * True when it takes {@code --after-step}: while an action runs, it waits for the action's
   * step to be recorded instead of stopping it.
   */
  public boolean takesAfterStep() {
    return rules.isAfterStep();
  }

  /**
   * True when a pause pending until the running step ends ({@link Pausing}) survives it; every
   * other command settles that pause (acting at once, or cancelling it).
   */
  public boolean keepsPendingPause() {
    return rules.isKeepingPendingPause();
  }

  /** The command a user typed, by its word or an alias, if it is one. */
  public static Optional<Command> parse(String word) {
    for (Command c : values()) {
      if (c.word().equals(word) || c.aliases().contains(word)) {
        return Optional.of(c);
      }
    }
    return Optional.empty();
  }

  /** Every word that names a command, each command's word followed by its aliases. */
  public static List<String> words() {
    return Arrays.stream(values())
        .flatMap(c -> Stream.concat(Stream.of(c.word()), c.aliases().stream()))
        .toList();
  }
}

package dev.fsm.task;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One command's rules as data, written as a builder so each {@link Command} reads as its row of
 * the SPEC's table ({@code move(FROM, TO)} pairs) followed by its effects.
 */
public final class CommandRules {

  /** How a command changes a task's due time. */
  public enum Due {
    /** Left as it was. */
    KEEP,
    /** Now: a runner claims the task at once. */
    NOW,
    /** The command's {@code --until}, which it needs. */
    UNTIL,
    /** None: nothing is scheduled (paused or ended). */
    CLEAR,
    /**
     * Now when the task lands runnable or in fault (to be claimed at once), none when it ends,
     * left as it was otherwise (a released sleeper keeps its wake-up time).
     */
    CLAIM_NOW
  }

  /** How a command changes a task's recent errors. */
  public enum Errors {
    /** Left as they were. */
    KEEP,
    /** The {@code --reason} (or who sent it) added as an error. */
    ADD_REASON,
    /** Emptied: the task starts over. */
    CLEAR
  }

  private final Map<TaskStatus, TaskStatus> moves = new EnumMap<>(TaskStatus.class);
  private final List<String> aliases = new ArrayList<>();
  private Due due = Due.KEEP;
  private Errors errors = Errors.KEEP;
  private boolean stopsRunningAction;
  private boolean wakesRunner;
  private boolean deliveredToAction;
  private boolean movesState;
  private boolean afterStep;
  private boolean keepsPendingPause;

  private CommandRules() {}

  static CommandRules of() {
    return new CommandRules();
  }

  CommandRules move(TaskStatus from, TaskStatus to) {
    if (moves.put(from, to) != null) {
      throw new IllegalStateException("two moves from " + from);
    }
    return this;
  }

  CommandRules due(Due value) {
    this.due = value;
    return this;
  }

  CommandRules errors(Errors value) {
    this.errors = value;
    return this;
  }

  CommandRules stopsRunningAction() {
    this.stopsRunningAction = true;
    return this;
  }

  CommandRules wakesRunner() {
    this.wakesRunner = true;
    return this;
  }

  CommandRules deliveredToAction() {
    this.deliveredToAction = true;
    return this;
  }

  CommandRules movesState() {
    this.movesState = true;
    return this;
  }

  CommandRules afterStep() {
    this.afterStep = true;
    return this;
  }

  CommandRules keepsPendingPause() {
    this.keepsPendingPause = true;
    return this;
  }

  CommandRules alias(String word) {
    aliases.add(word);
    return this;
  }

  Map<TaskStatus, TaskStatus> moves() {
    return Collections.unmodifiableMap(moves);
  }

  List<String> aliases() {
    return Collections.unmodifiableList(aliases);
  }

  Due due() {
    return due;
  }

  Errors errors() {
    return errors;
  }

  boolean isStopping() {
    return stopsRunningAction;
  }

  boolean isWaking() {
    return wakesRunner;
  }

  boolean isDelivered() {
    return deliveredToAction;
  }

  boolean isMovingState() {
    return movesState;
  }

  boolean isAfterStep() {
    return afterStep;
  }

  boolean isKeepingPendingPause() {
    return keepsPendingPause;
  }
}

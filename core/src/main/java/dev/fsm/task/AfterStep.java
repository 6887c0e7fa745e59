package dev.fsm.task;

import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * {@code pause --after-step}: a pause that lets the running action finish its step. Pure
 * functions: asking marks the task ({@link Pausing}), and a store applies the mark when the
 * runner records the step's end ({@link #settle}), atomically with that record, so a command that
 * arrives while the outcome is on its way is never lost.
 */
public final class AfterStep {

  private AfterStep() {}

  /** The commands that take {@code --after-step}, as {@code `pause`}, for messages. */
  public static String commands() {
    return Arrays.stream(Command.values()).filter(Command::takesAfterStep)
        .map(c -> "`" + c.word() + "`").collect(Collectors.joining(", "));
  }

  /** The history event of an ask to wait for the running step: {@code pause --after-step}. */
  public static String askedEvent(Command command) {
    return command.word() + " --after-step";
  }

  /**
   * The change asking makes to a task whose action runs: the task keeps its status and lease and
   * is marked; a second ask keeps the first mark.
   */
  static Change asked(Task task, Command command, Commands.Request request, Instant now) {
    Pausing mark = task.pausing() != null ? task.pausing()
        : new Pausing(now, request.by(), request.reason());
    return new Change(task.withPausing(mark), new Transition(now, task.state(),
        askedEvent(command), task.state(), 0, task.attempt(), request.by(), request.reason()));
  }

  /**
   * The change that pauses a marked task at once, as its asker's {@code pause}: when a runner
   * claims it (its last runner died or released it mid-step), nothing runs again.
   */
  public static Change pauseNow(Task task, Instant now) {
    Pausing mark = task.pausing();
    return Commands.apply(task, Command.PAUSE, new Commands.Request(null, mark.reason(),
        mark.by()), now);
  }

  /**
   * What a store records for a runner's change to a task carrying {@code mark} (the stored
   * task's, which may have come after the runner computed the change).
   *
   * <p>No mark: the change as it is. A change that keeps the lease (the start of an at-most-once
   * attempt) does not end the step: it keeps the mark. A change that ends the step is recorded,
   * then the task is paused where it landed, by the asker, unless it landed where {@code pause}
   * does not apply (a final status, or fault), where it stays. An error whose policy would sleep
   * lands sleeping, so it is paused instead, its error recorded.
   *
   * @return the changes to record, in order (one or two)
   */
  public static List<Change> settle(Pausing mark, Change change) {
    if (mark == null) {
      // The store's word is final: a mark cancelled while the action ran is not brought back.
      return List.of(change.next().pausing() == null ? change
          : new Change(change.next().withPausing(null), change.entry()));
    }
    if (change.next().lease() != null) {
      return List.of(new Change(change.next().withPausing(mark), change.entry()));
    }
    Change step = new Change(change.next().withPausing(null), change.entry());
    TaskStatus landed = step.next().status();
    if (landed == TaskStatus.PAUSED || Command.PAUSE.next(landed).isEmpty()) {
      return List.of(step);
    }
    Change pause = Commands.apply(step.next(), Command.PAUSE,
        new Commands.Request(null, mark.reason(), mark.by()), step.entry().time());
    return List.of(step, pause);
  }
}

package dev.fsm.task;

import dev.fsm.FsmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What an operator's command does to a task: a pure function of the task, the command and the
 * time, following {@link CommandTable}. Every command but {@code run} and {@code checkpoint} drops
 * the task's lease, so a running attempt is stopped and discarded rather than recorded.
 */
public final class Commands {

  private Commands() {}

  /**
   * An operator's command with its options.
   *
   * @param until for {@code sleep}: when to wake (required)
   * @param reason the {@code --reason}, or empty
   * @param by who sent it, for the history
   */
  public record Request(Instant until, String reason, String by) {

    /** Longest reason kept: it goes into the history, and with `error` into the errors. */
    public static final int MAX_REASON_CHARS = 1000;

    public Request {
      if (reason.length() > MAX_REASON_CHARS) {
        throw new FsmException("--reason is " + reason.length() + " characters long; keep it"
            + " under " + MAX_REASON_CHARS + ", as it is kept in the task's history");
      }
    }
  }

  /**
   * The change a command makes.
   *
   * @throws FsmException when the table refuses the pair, or {@code sleep} has no time
   */
  public static Change apply(Task task, Command command, Request request, Instant now) {
    TaskStatus next = CommandTable.next(task.status(), command)
        .orElseThrow(() -> new FsmException("task `" + task.id() + "`: "
            + CommandTable.refusal(task.status(), command)));
    Instant due = task.due();
    Lease lease = command.stopsRunningAction() ? null : task.lease();
    List<TaskError> errors = task.errors();
    switch (command) {
      case RUN -> due = now;
      case SLEEP -> {
        if (request.until() == null) {
          throw new FsmException("task `" + task.id() + "`: `sleep` needs --until TIME|DURATION");
        }
        due = request.until();
      }
      case PAUSE, KILL, COMPLETE -> due = null;
      case ERROR -> {
        // Into fault: due now, so a runner claims it and applies the state's error policy.
        due = next == TaskStatus.FAULT ? now : null;
        errors = new ArrayList<>(errors);
        errors.add(new TaskError(now, request.reason().isEmpty()
            ? "error sent by " + request.by() : request.reason()));
      }
      case RELEASE -> due = next == TaskStatus.RUNNABLE ? now : due;
      case CHECKPOINT -> { }
      default -> throw new IllegalStateException(command.toString());
    }
    Task after = new Task(task.id(), task.machine(), task.version(), task.state(), next,
        task.context(), task.attempt(), errors, task.created(), task.stateEntered(),
        task.lastAttempt(), due, lease);
    Transition entry = new Transition(now, task.state(), command.word(), task.state(), 0,
        task.attempt(), request.by(), request.reason());
    return new Change(after, entry);
  }
}

package dev.fsm.task;

import dev.fsm.FsmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * What an operator's command does to a task: a pure function of the task, the command and the
 * time, following each {@link Command}'s rules. A command that stops a running action drops the
 * task's lease, so a running attempt is stopped and discarded rather than recorded.
 */
public final class Commands {

  private Commands() {}

  /**
   * An operator's command with its options.
   *
   * @param until for {@code sleep}: when to wake (required)
   * @param reason the {@code --reason}, or empty
   * @param by who sent it, for the history
   * @param to for {@code redrive}: the machine state the task goes back to, already checked
   *     against its machine; null for the state where it stopped
   * @param afterStep {@code --after-step}: a running action finishes its step first
   * @param typed the word the user typed for the command (an alias such as {@code resume}), for
   *     messages; null for the command's own word
   */
  public record Request(Instant until, String reason, String by, String to, boolean afterStep,
      String typed) {

    /** Longest reason kept: it goes into the history, and with `error` into the errors. */
    public static final int MAX_REASON_CHARS = 1000;

    public Request {
      if (reason.length() > MAX_REASON_CHARS) {
        throw new FsmException("--reason is " + reason.length() + " characters long; keep it"
            + " under " + MAX_REASON_CHARS + ", as it is kept in the task's history");
      }
    }

    /** This request with another {@code to}. */
    public Request withTo(String state) {
      return new Request(until, reason, by, state, afterStep, typed);
    }

    /** A request that keeps the task in its state. */
    public Request(Instant until, String reason, String by) {
      this(until, reason, by, null, false, null);
    }

    /** A request with {@code --to}, and no {@code --after-step}. */
    public Request(Instant until, String reason, String by, String to) {
      this(until, reason, by, to, false, null);
    }

    /**
     * The word to name the command by in messages: what the user typed, when that is one of the
     * command's names (a request from elsewhere cannot make a refusal name another command).
     */
    public String word(Command command) {
      return typed != null && command.aliases().contains(typed) ? typed : command.word();
    }
  }

  /**
   * The status {@code command} leads the task to.
   *
   * @throws FsmException naming the task, its status and the commands it allows, when refused
   */
  public static TaskStatus allowed(Task task, Command command) {
    return allowed(task, command, command.word());
  }

  /** {@link #allowed(Task, Command)}, naming the command by the word the user typed. */
  public static TaskStatus allowed(Task task, Command command, String typed) {
    return command.next(task.status())
        .orElseThrow(() -> new Refused(task, command, typed, task.status().word()));
  }

  /**
   * The command table refused a command to a task. It names the task's stored status, unless
   * {@link #shownAs} said how the task shows, which only a caller outside the store's update
   * knows (it needs the machine).
   */
  public static final class Refused extends FsmException {

    private final Task task;
    private final Command command;
    private final String typed;

    Refused(Task task, Command command, String typed, String shown) {
      super("task `" + task.id() + "`: " + CommandTable.refusal(task.status(), typed, shown));
      this.task = task;
      this.command = command;
      this.typed = typed;
    }

    /** The task as it was refused. */
    public Task task() {
      return task;
    }

    /** The same refusal, naming the status the task is shown with. */
    public Refused shownAs(String shown) {
      return new Refused(task, command, typed, shown);
    }
  }

  /**
   * The change a command makes.
   *
   * @throws FsmException when the table refuses the pair, or {@code sleep} has no time
   */
  public static Change apply(Task task, Command command, Request request, Instant now) {
    TaskStatus next = allowed(task, command, request.word(command));
    if (request.to() != null && !command.takesTo()) {
      throw new FsmException("task `" + task.id() + "`: --to is for `redrive` only");
    }
    if (request.afterStep() && !command.takesAfterStep()) {
      throw new FsmException("task `" + task.id() + "`: --after-step is for "
          + AfterStep.commands() + " only");
    }
    if (request.afterStep() && task.leaseAt(now).isPresent()) {
      return AfterStep.asked(task, command, request, now);
    }
    Instant due = switch (command.due()) {
      case KEEP -> task.due();
      case NOW -> now;
      case UNTIL -> {
        if (request.until() == null) {
          throw new FsmException("task `" + task.id() + "`: `" + command.word()
              + "` needs --until TIME|DURATION");
        }
        yield request.until();
      }
      case CLEAR -> null;
      case CLAIM_NOW -> next == TaskStatus.RUNNABLE || next == TaskStatus.FAULT ? now
          : next.isTerminal() ? null : task.due();
    };
    // An ended task holds no running action; whatever lease it kept must not delay a redrive.
    Lease lease = command.stopsRunningAction() || task.status().isTerminal() ? null
        : task.lease();
    List<TaskError> errors = switch (command.errors()) {
      case KEEP -> task.errors();
      case CLEAR -> List.of();
      case ADD_REASON -> {
        List<TaskError> more = new ArrayList<>(task.errors());
        more.add(new TaskError(now, request.reason().isEmpty()
            ? command.word() + " sent by " + request.by() : request.reason()));
        yield more;
      }
    };
    String state = task.state();
    int attempt = task.attempt();
    Instant stateEntered = task.stateEntered();
    if (command.takesTo()) {
      // It starts over: in the state given or where it stopped, with no attempts counted yet.
      state = request.to() == null ? task.state() : request.to();
      attempt = 0;
      stateEntered = now;
    }
    Task after = new Task(task.id(), task.machine(), task.version(), state, next,
        task.context(), attempt, errors, task.created(), stateEntered, task.lastAttempt(), due,
        lease, command.keepsPendingPause() ? task.pausing() : null);
    Transition entry = new Transition(now, task.state(), command.word(), state, 0,
        task.attempt(), request.by(), request.reason());
    return new Change(after, entry);
  }
}

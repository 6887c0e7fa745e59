package dev.fsm.operations;

import dev.fsm.FsmException;
import dev.fsm.engine.MachineLibrary;
import dev.fsm.engine.OperatorListener;
import dev.fsm.engine.ShownStatuses;
import dev.fsm.store.Store;
import dev.fsm.store.TaskCount;
import dev.fsm.store.TaskNotFoundException;
import dev.fsm.store.TaskQuery;
import dev.fsm.task.Change;
import dev.fsm.task.Command;
import dev.fsm.task.Commands;
import dev.fsm.task.Task;
import dev.fsm.task.TaskStatus;
import dev.fsm.task.Transition;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/** An operator's commands to tasks, one or every task a selection matches. */
final class TaskCommands {

  /** Tasks a bulk send reads at a time: without their contexts, so many fit. */
  private static final int PAGE = 256;

  private final Store store;
  private final MachineLibrary machines;
  private final Clock clock;
  private final String operator;
  private final OperatorListener listener;

  TaskCommands(Store store, MachineLibrary machines, Clock clock, String operator,
      OperatorListener listener) {
    this.store = store;
    this.machines = machines;
    this.clock = clock;
    this.operator = operator;
    this.listener = listener;
  }

  /** {@link Operations#send(String, Command, SendOptions)}. */
  Task send(String id, Command command, SendOptions options) {
    return send(id, command, options, t -> true);
  }

  /**
   * Sends the command to a task that {@code still} accepts as it is when the command reaches
   * it: a bulk send's selection, which another operator may have changed since it was listed.
   *
   * @throws LeftSelection when it no longer does
   */
  private Task send(String id, Command command, SendOptions options, Predicate<Task> still) {
    Commands.Request request = request(options);
    String to = options.to();
    Task after;
    try {
      after = command.takesTo() ? moveState(id, command, request, to, still)
          : store.update(id, t -> {
            requireSelected(t, still);
            return change(t, command, request, to, List.of());
          });
    } catch (Commands.Refused refused) {
      throw shown(refused);
    }
    listener.commandApplied(after, command);
    if (command.wakesRunner()) {
      listener.workArrived();
    }
    return after;
  }

  /** {@link Operations#sendAll}. */
  BulkSendReport sendAll(TaskSelector selector, Command command, SendOptions options,
      boolean dryRun) {
    int matched = 0;
    List<String> changed = new ArrayList<>();
    List<BulkSendReport.Refusal> refused = new ArrayList<>();
    Commands.Request request = request(options);
    String to = options.to();
    Optional<String> after = Optional.empty();
    // How each task shows, for the statuses: read for the machine now, so that no update asks
    // the store for its versions; shared by the fanout's threads, hence the lock.
    ShownStatuses shown = new ShownStatuses(machines::versions);
    shown.of(new TaskCount(selector.machine(), "", TaskStatus.RUNNABLE, 0));
    Predicate<Task> still = t -> {
      synchronized (shown) {
        return selector.selects(t, shown.of(t));
      }
    };
    try (Fanout fanout = new Fanout("fsm-send")) {
      while (true) {
        // Without contexts: a command never reads one, and send reads each task again.
        List<Task> page = TaskLists.list(store, new TaskQuery(Optional.of(selector.machine()),
            selector.state(), selector.statuses(), after, PAGE, TaskQuery.Order.ASCENDING,
            TaskQuery.Sort.ID), false);
        // Empty for a task changed; null for one that left the selection meanwhile.
        List<Optional<BulkSendReport.Refusal>> outcomes = fanout.each(page, task -> {
          try {
            if (dryRun) {
              List<Transition> history =
                  command.takesTo() ? store.history(task.id()) : List.of();
              try {
                change(task, command, request, to, history);
              } catch (Commands.Refused no) {
                throw shown(no);
              }
            } else {
              send(task.id(), command, options, still);
            }
            return Optional.empty();
          } catch (LeftSelection | TaskNotFoundException gone) {
            return null;
          } catch (FsmException e) {
            // A refusal names the status the task shows with already (send, or above).
            return Optional.of(new BulkSendReport.Refusal(task.id(), e.getMessage()));
          }
        });
        for (int i = 0; i < page.size(); i++) {
          Optional<BulkSendReport.Refusal> outcome = outcomes.get(i);
          if (outcome == null) {
            continue;
          }
          matched++;
          if (outcome.isPresent()) {
            refused.add(outcome.get());
          } else {
            changed.add(page.get(i).id());
          }
        }
        if (page.size() < PAGE) {
          break;
        }
        after = Optional.of(page.get(page.size() - 1).id());
      }
    }
    return new BulkSendReport(matched, changed, refused, dryRun);
  }

  /**
   * A command that may move the task to another state, which can depend on its history. The
   * history is read ahead of the update; should the task change in between (redriven and ended
   * again by another operator and a runner), the update is computed again from fresh history.
   */
  private Task moveState(String id, Command command, Commands.Request request, String to,
      Predicate<Task> still) {
    for (int tries = 1; ; tries++) {
      List<Transition> history = store.history(id);
      try {
        return store.update(id, t -> {
          requireSelected(t, still);
          Commands.allowed(t, command, request.word(command));
          if (!history.isEmpty() && !history.get(history.size() - 1).to().equals(t.state())) {
            throw new StaleHistory();
          }
          return change(t, command, request, to, history);
        });
      } catch (StaleHistory e) {
        if (tries == 3) {
          throw new FsmException("task `" + id + "` kept changing while `" + command.word()
              + "` was sent; send it again");
        }
      }
    }
  }

  private static void requireSelected(Task t, Predicate<Task> still) {
    if (!still.test(t)) {
      throw new LeftSelection();
    }
  }

  /** A task a bulk send listed no longer matches its selection when the command reaches it. */
  private static final class LeftSelection extends RuntimeException {
    LeftSelection() {
      super(null, null, false, false);
    }
  }

  /** The history read ahead of an update no longer ends where the task is. */
  private static final class StaleHistory extends RuntimeException {
    StaleHistory() {
      super(null, null, false, false);
    }
  }

  /**
   * A refusal naming the status the task is shown with (waiting, for a runnable task that waits
   * for a signal). Made outside the store's update: the machine's versions it reads would nest a
   * store call inside it.
   */
  private Commands.Refused shown(Commands.Refused refused) {
    return refused.shownAs(new ShownStatuses(machines::versions).of(refused.task()).word());
  }

  private Commands.Request request(SendOptions o) {
    return new Commands.Request(o.until(), o.reason() == null ? "" : o.reason(), operator, null,
        o.afterStep(), o.typed());
  }

  /** The command's change; for one that moves the task between states, where to, checked. */
  private Change change(Task task, Command command, Commands.Request request, String to,
      List<Transition> history) {
    if (!command.takesTo()) {
      return Commands.apply(task, command, request.withTo(to), clock.instant());
    }
    Commands.allowed(task, command, request.word(command));
    String state = RedriveTarget.of(task, machines.machine(task.machine(), task.version()),
        history, to);
    return Commands.apply(task, command, request.withTo(state), clock.instant());
  }
}

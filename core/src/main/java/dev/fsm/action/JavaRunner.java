package dev.fsm.action;

import com.fasterxml.jackson.databind.JsonNode;
import dev.fsm.action.api.ActionResult;
import dev.fsm.action.api.FsmAction;
import dev.fsm.json.StrictJson;
import dev.fsm.model.Action;
import dev.fsm.model.Durations;

/**
 * Runs {@code java:} actions on the calling worker thread: a new instance per attempt, commands
 * delivered through its context, and a stop that interrupts the thread. Thread-safe.
 */
final class JavaRunner implements ActionRunner {

  private final PluginLoader plugins;

  JavaRunner(PluginLoader plugins) {
    this.plugins = plugins;
  }

  @Override
  public ActionOutcome run(ActionRequest request, Attempt attempt) {
    String className = ((Action.JavaClass) request.action()).className();
    FsmAction action;
    try {
      action = plugins.instantiate(className);
    } catch (ActionException e) {
      return new ActionOutcome.Error(e.getMessage());
    }
    PluginContext context = new PluginContext(request.task(), attempt);
    Thread worker = Thread.currentThread();
    Interrupter interrupter = new Interrupter(worker);
    attempt.onStop(reason -> interrupter.interrupt());
    ClassLoader previous = worker.getContextClassLoader();
    worker.setContextClassLoader(action.getClass().getClassLoader());
    ActionResult result = null;
    Throwable failure = null;
    try {
      result = action.run(context);
    } catch (Exception | LinkageError e) {
      failure = e;
    } finally {
      worker.setContextClassLoader(previous);
    }
    if (interrupter.finish()) {
      return new ActionOutcome.Stopped(attempt.stopReason());
    }
    if (failure != null) {
      return new ActionOutcome.Error(failure.getClass().getName()
          + (failure.getMessage() == null ? "" : ": " + failure.getMessage()));
    }
    return outcome("java:" + className, result);
  }

  private static ActionOutcome outcome(String name, ActionResult result) {
    if (result == null) {
      return new ActionOutcome.Error(name + " returned no result; return ActionResult.event(\"ok\")"
          + " or another result");
    }
    if (result instanceof ActionResult.Event event) {
      if (event.name().isBlank()) {
        return new ActionOutcome.Error(name + " returned an event without a name");
      }
      if (event.contextJson() == null) {
        return new ActionOutcome.Event(event.name(), null);
      }
      try {
        JsonNode context = StrictJson.read(event.contextJson());
        if (context.isObject()) {
          return new ActionOutcome.Event(event.name(), context.toString());
        }
      } catch (StrictJson.InvalidJsonException e) {
        return new ActionOutcome.Error(e.message(name + " returned a context that"));
      }
      return new ActionOutcome.Error(name + " returned a context that is not a JSON object");
    }
    if (result instanceof ActionResult.Sleep sleep) {
      if (sleep.duration().isNegative()) {
        return new ActionOutcome.Error(name + " asked to sleep a negative duration");
      }
      return sleep.duration().compareTo(Durations.MAX) > 0
          ? new ActionOutcome.Error(name + " asked to sleep " + sleep.duration().toDays()
              + " days; the longest sleep is 100 years")
          : new ActionOutcome.Sleep(sleep.duration());
    }
    String message = ((ActionResult.Error) result).message().strip();
    return new ActionOutcome.Error(message.isEmpty()
        ? name + " reported an error without a message" : message);
  }

  /** Interrupts the worker for a stop only while the action runs, never the runner after it. */
  private static final class Interrupter {
    private final Thread worker;
    private boolean running = true;
    private boolean stopped;

    Interrupter(Thread worker) {
      this.worker = worker;
    }

    synchronized void interrupt() {
      stopped = true;
      if (running) {
        worker.interrupt();
      }
    }

    /** Ends the action's run; true when it was stopped. Clears the stop's interrupt. */
    synchronized boolean finish() {
      running = false;
      if (stopped) {
        Thread.interrupted();
      }
      return stopped;
    }
  }
}

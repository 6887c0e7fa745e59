package dev.fsm.action;

import dev.fsm.task.Command;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * The line between a running action and the rest of the runner: stop requests and operator
 * commands arrive here from other threads while the action runs. Thread-safe.
 */
public final class Attempt {

  /** Why an action was stopped before it finished. */
  public enum StopReason {
    /** An operator command (pause, sleep, kill, release) took the task out of runnable. */
    COMMAND,
    /** The runner lost the task's lease; another runner may hold it now. */
    LEASE_LOST,
    /** The state's timeout ran out. */
    TIMEOUT,
    /** The runner is shutting down and its grace period is over. */
    SHUTDOWN
  }

  private final List<Consumer<StopReason>> stopListeners = new ArrayList<>();
  private final List<Consumer<Command>> commandListeners = new ArrayList<>();
  private StopReason stopReason;

  /** Asks the action to stop; the first reason wins. Listeners run on the caller's thread. */
  public void stop(StopReason reason) {
    List<Consumer<StopReason>> listeners;
    synchronized (this) {
      if (stopReason != null) {
        return;
      }
      stopReason = reason;
      listeners = List.copyOf(stopListeners);
    }
    listeners.forEach(l -> l.accept(reason));
  }

  /** Why the action was asked to stop, or null while it may run on. */
  public synchronized StopReason stopReason() {
    return stopReason;
  }

  /** True once the action was asked to stop. */
  public synchronized boolean stopRequested() {
    return stopReason != null;
  }

  /** Delivers an operator's command (such as {@code checkpoint}) to the running action. */
  public void deliver(Command command) {
    List<Consumer<Command>> listeners;
    synchronized (this) {
      listeners = List.copyOf(commandListeners);
    }
    listeners.forEach(l -> l.accept(command));
  }

  /**
   * Calls {@code listener} when a stop is requested; at once when one already was. For the
   * action kinds, not for the runner.
   */
  public void onStop(Consumer<StopReason> listener) {
    StopReason already;
    synchronized (this) {
      stopListeners.add(listener);
      already = stopReason;
    }
    if (already != null) {
      listener.accept(already);
    }
  }

  /** Calls {@code listener} with every command delivered from now on. */
  public synchronized void onCommand(Consumer<Command> listener) {
    commandListeners.add(listener);
  }
}

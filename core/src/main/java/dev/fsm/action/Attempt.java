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
  private final List<Runnable> hurryListeners = new ArrayList<>();
  private StopReason stopReason;
  private boolean hurried;

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

  /**
   * Stops the action (for {@code reason}, unless it was asked to stop before) and ends it at
   * once, without the grace a stop gives: programs get SIGKILL. For a runner told twice to stop.
   */
  public void hurry(StopReason reason) {
    stop(reason);
    List<Runnable> listeners;
    synchronized (this) {
      if (hurried) {
        return;
      }
      hurried = true;
      listeners = List.copyOf(hurryListeners);
    }
    listeners.forEach(Runnable::run);
  }

  /** Calls {@code listener} when the action is hurried; at once when it already was. */
  public void onHurry(Runnable listener) {
    boolean already;
    synchronized (this) {
      hurryListeners.add(listener);
      already = hurried;
    }
    if (already) {
      listener.run();
    }
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

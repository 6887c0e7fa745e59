package dev.fsm.action.api;

/**
 * A state's action written in Java, run by {@code run: java:<class>} from a jar in the runner's
 * {@code --plugins} folder. Implementations need a public no-argument constructor; a new
 * instance runs each attempt, on a worker thread of the runner.
 */
public interface FsmAction {

  /**
   * Does the state's work and says how it went. A thrown exception is recorded as the task's
   * error. When the attempt is stopped the thread is interrupted and {@link
   * ActionContext#stopRequested()} turns true; return promptly then.
   */
  ActionResult run(ActionContext context) throws Exception;
}

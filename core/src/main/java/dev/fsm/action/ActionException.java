package dev.fsm.action;

/** An action could not be run at all; the message says why and what to do, for the task. */
final class ActionException extends Exception {

  ActionException(String message) {
    super(message);
  }
}

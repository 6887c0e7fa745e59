package dev.fsm.store;

/** What a process opens a store for; a kind of store may open it differently for each. */
public enum StorePurpose {
  /** Reading tasks: ls, show, history, stats, watch. */
  READ,
  /** Changing tasks as an operator: start, send, signal. */
  WRITE,
  /** Running tasks: claiming, running actions, recording transitions. */
  RUN,
  /** Checking, rebuilding or repairing the store itself. */
  CHECK
}

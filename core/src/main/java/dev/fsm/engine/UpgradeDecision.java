package dev.fsm.engine;

/**
 * What {@code fsm upgrade} does to one unfinished task of an older version.
 *
 * @param kind what happens
 * @param missingState for {@link Kind#FAULT}: the task's state, which the new version lacks; for
 *     {@link Kind#MOVE_AFTER_ATTEMPT}: a state the new version lacks that the running attempt's
 *     outcome may leave it in under the old version's edges (its own state, or where an edge
 *     leads), so that it goes to fault when it moves; null when there is none
 */
public record UpgradeDecision(Kind kind, String missingState) {

  /** The decisions. */
  public enum Kind {
    /** It keeps its version ({@code upgrade: continue}). */
    CONTINUE,
    /** It moves to the new version now. */
    MOVE,
    /** Its attempt is running: it moves once the old version's edges routed the outcome. */
    MOVE_AFTER_ATTEMPT,
    /** Its state is not in the new version: it goes to parked fault. */
    FAULT,
    /** It is killed ({@code upgrade: abort}). */
    ABORT
  }

  /** A decision that names no state. */
  public static UpgradeDecision of(Kind kind) {
    return new UpgradeDecision(kind, null);
  }
}

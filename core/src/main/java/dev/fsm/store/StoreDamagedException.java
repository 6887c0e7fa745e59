package dev.fsm.store;

import dev.fsm.FsmException;

/**
 * The store's durable record is damaged where reading past it would lose acknowledged data, so
 * the store is refused until it is repaired.
 */
public class StoreDamagedException extends FsmException {

  private final String place;
  private final long offset;
  private final String reason;

  /**
   * @param place what is damaged, such as a journal segment's file
   * @param offset where in it the damage starts, or -1 when that has no meaning
   * @param reason what is wrong there, such as "CRC mismatch"
   */
  public StoreDamagedException(String message, String place, long offset, String reason) {
    super(message);
    this.place = place;
    this.offset = offset;
    this.reason = reason;
  }

  /** What is damaged, such as a journal segment's file. */
  public String place() {
    return place;
  }

  /** Where in it the damage starts, or -1. */
  public long offset() {
    return offset;
  }

  /** What is wrong there. */
  public String reason() {
    return reason;
  }
}

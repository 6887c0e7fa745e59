package dev.fsm.store.embedded.event;

import dev.fsm.task.Transition;

/**
 * fsm's versioned binary encoding of one history entry, for the index's history values: the same
 * fields as a {@link StoreEvent.Changed} record's entry, behind a format byte of its own.
 */
public final class TransitionCodec {

  private static final int FORMAT = 1;

  private TransitionCodec() {}

  public static byte[] encode(Transition t) {
    ByteWriter w = new ByteWriter().writeByte(FORMAT);
    StoreEventCodec.writeTransition(w, t);
    return w.toBytes();
  }

  /**
   * The entry in bytes written by {@link #encode}.
   *
   * @throws IllegalArgumentException when the bytes are not one whole entry
   */
  public static Transition decode(byte[] bytes) {
    ByteReader r = new ByteReader(bytes);
    int format = r.readByte();
    if (format != FORMAT) {
      throw new IllegalArgumentException("unknown history entry format " + format);
    }
    Transition t = StoreEventCodec.readTransition(r);
    if (!r.atEnd()) {
      throw new IllegalArgumentException("history entry has bytes after its end");
    }
    return t;
  }
}

package dev.fsm.store.embedded;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/** Writes fsm's compact binary encoding: varints, length-prefixed UTF-8, nullable instants. */
final class ByteWriter {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream(256);

  ByteWriter writeByte(int b) {
    out.write(b);
    return this;
  }

  /** An unsigned varint: 7 bits a byte, small numbers in one byte. */
  ByteWriter writeVarLong(long value) {
    long v = value;
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
    return this;
  }

  ByteWriter writeString(String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    writeVarLong(bytes.length);
    out.writeBytes(bytes);
    return this;
  }

  /**
   * Epoch milliseconds + 1 (so that 0 can mean "none"), then the nanoseconds within the
   * millisecond: lossless, and one byte for the usual whole milliseconds.
   */
  ByteWriter writeInstant(Instant instant) {
    if (instant == null) {
      return writeVarLong(0);
    }
    writeVarLong(instant.toEpochMilli() + 1);
    return writeVarLong(instant.getNano() % 1_000_000);
  }

  /**
   * An instant as a signed millisecond distance from {@code base} (zig-zag, + 1 so that 0 can
   * mean "none"), then the nanoseconds within the millisecond: a task's times sit close to its
   * creation, so this takes 2-5 bytes instead of 8-10.
   */
  ByteWriter writeInstantFrom(Instant base, Instant instant) {
    if (instant == null) {
      return writeVarLong(0);
    }
    long diff = instant.toEpochMilli() - base.toEpochMilli();
    writeVarLong(((diff << 1) ^ (diff >> 63)) + 1);
    return writeVarLong(instant.getNano() % 1_000_000);
  }

  byte[] toBytes() {
    return out.toByteArray();
  }
}

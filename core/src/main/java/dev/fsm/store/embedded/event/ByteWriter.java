package dev.fsm.store.embedded.event;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/**
 * Writes fsm's compact binary encoding: varints, length-prefixed UTF-8, nullable instants. Its
 * own buffer rather than a ByteArrayOutputStream, whose every one-byte write takes a lock: the
 * encoding runs under the store's lock for each change, and that showed in profiles.
 */
final class ByteWriter {

  private byte[] buf = new byte[256];
  private int size;

  ByteWriter writeByte(int b) {
    room(1);
    buf[size++] = (byte) b;
    return this;
  }

  /** An unsigned varint: 7 bits a byte, small numbers in one byte. */
  ByteWriter writeVarLong(long value) {
    room(10);
    long v = value;
    while ((v & ~0x7FL) != 0) {
      buf[size++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    buf[size++] = (byte) v;
    return this;
  }

  /** The bytes behind their length. */
  ByteWriter writeBytes(byte[] bytes) {
    writeVarLong(bytes.length);
    room(bytes.length);
    System.arraycopy(bytes, 0, buf, size, bytes.length);
    size += bytes.length;
    return this;
  }

  ByteWriter writeString(String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    writeVarLong(bytes.length);
    room(bytes.length);
    System.arraycopy(bytes, 0, buf, size, bytes.length);
    size += bytes.length;
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
    return Arrays.copyOf(buf, size);
  }

  private void room(int more) {
    if (size + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + more));
    }
  }
}

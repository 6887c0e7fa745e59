package dev.fsm.store.embedded.event;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/** Reads what {@link ByteWriter} wrote, refusing anything that runs past the end. */
final class ByteReader {

  private final byte[] bytes;
  private int at;

  ByteReader(byte[] bytes) {
    this.bytes = bytes;
  }

  int readByte() {
    if (at >= bytes.length) {
      throw new IllegalArgumentException("record ends early at byte " + at);
    }
    return bytes[at++] & 0xFF;
  }

  long readVarLong() {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      int b = readByte();
      value |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    throw new IllegalArgumentException("varint longer than 10 bytes at byte " + at);
  }

  int readVarInt() {
    long v = readVarLong();
    if (v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("number " + v + " too large at byte " + at);
    }
    return (int) v;
  }

  /** Bytes written by {@link ByteWriter#writeBytes}. */
  byte[] readBytes() {
    int length = readVarInt();
    if (length > bytes.length - at) {
      throw new IllegalArgumentException(length + " bytes run past the record");
    }
    byte[] read = Arrays.copyOfRange(bytes, at, at + length);
    at += length;
    return read;
  }

  String readString() {
    int length = readVarInt();
    if (length > bytes.length - at) {
      throw new IllegalArgumentException("string of " + length + " bytes runs past the record");
    }
    String s = new String(bytes, at, length, StandardCharsets.UTF_8);
    at += length;
    return s;
  }

  Instant readInstant() {
    long v = readVarLong();
    return v == 0 ? null : Instant.ofEpochMilli(v - 1).plusNanos(readVarLong());
  }

  Instant readInstantFrom(Instant base) {
    long v = readVarLong();
    if (v == 0) {
      return null;
    }
    long zigzag = v - 1;
    long diff = (zigzag >>> 1) ^ -(zigzag & 1);
    return Instant.ofEpochMilli(base.toEpochMilli() + diff).plusNanos(readVarLong());
  }

  boolean atEnd() {
    return at == bytes.length;
  }
}

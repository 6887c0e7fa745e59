package dev.fsm.action;

import java.nio.charset.StandardCharsets;

/**
 * The last bytes written to it, up to a cap: a program's output stream is kept this way so
 * megabytes of output cost at most the cap in memory. Grows on demand, so a quiet program costs
 * little. Thread-safe.
 */
final class TailBuffer {

  private static final int INITIAL = 4096;

  private final int cap;
  /** Linear while less than {@code cap} bytes were written; a ring of {@code cap} after. */
  private byte[] bytes = new byte[0];
  /** Once the ring is full: where the oldest byte is and the next one goes. */
  private int head;
  private long written;

  TailBuffer(int cap) {
    this.cap = cap;
  }

  synchronized void write(byte[] source, int offset, int length) {
    if (length >= cap) {
      bytes = new byte[cap];
      System.arraycopy(source, offset + length - cap, bytes, 0, cap);
      head = 0;
      written += length;
      return;
    }
    int from = offset;
    int left = length;
    if (written < cap) {
      int linear = (int) Math.min(left, cap - written);
      ensureCapacity((int) written + linear);
      System.arraycopy(source, from, bytes, (int) written, linear);
      from += linear;
      left -= linear;
      head = 0;
    }
    while (left > 0) {
      int n = Math.min(left, cap - head);
      System.arraycopy(source, from, bytes, head, n);
      head = (head + n) % cap;
      from += n;
      left -= n;
    }
    written += length;
  }

  /** True when older output was dropped to stay under the cap. */
  synchronized boolean truncated() {
    return written > cap;
  }

  /** The bytes kept, oldest first, as UTF-8 text (malformed bytes replaced). */
  synchronized String text() {
    if (written < cap) {
      return new String(bytes, 0, (int) written, StandardCharsets.UTF_8);
    }
    byte[] ordered = new byte[cap];
    System.arraycopy(bytes, head, ordered, 0, cap - head);
    System.arraycopy(bytes, 0, ordered, cap - head, head);
    return new String(ordered, StandardCharsets.UTF_8);
  }

  private void ensureCapacity(int needed) {
    if (needed <= bytes.length) {
      return;
    }
    long length = Math.max(INITIAL, bytes.length);
    while (length < needed) {
      length *= 2;
    }
    byte[] bigger = new byte[(int) Math.min(length, cap)];
    System.arraycopy(bytes, 0, bigger, 0, (int) written);
    bytes = bigger;
  }
}

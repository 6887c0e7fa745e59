package dev.fsm.store.embedded.index;

import dev.fsm.store.embedded.event.StoreEventCodec;
import dev.fsm.task.Task;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * A task as the index stores it: fsm's task encoding ({@link StoreEventCodec#encodeTask}) with
 * an empty id, since the task's key is its id, deflated with a preset dictionary of common JSON
 * tokens when that is shorter (issue 21: the context was three quarters of the index). Deflated, the value is a 0 byte (no task encoding
 * starts with one: it starts with its format, 1 or more), the encoding's length as a varint,
 * then the raw deflate stream. The same task always gives the same bytes, so two indexes
 * compare entry by entry. Changing {@link #DICTIONARY} or the level changes those bytes: bump
 * {@link TaskIndex#FORMAT} with it.
 */
final class TaskValues {

  /** The first byte of a deflated value. */
  private static final int DEFLATED = 0;

  /**
   * Deflate's preset dictionary: tokens JSON contexts often hold, the likeliest last (deflate
   * reaches the end of its window most cheaply). Kept short: setting a dictionary costs time in
   * proportion to its length, on every value.
   */
  private static final byte[] DICTIONARY = ("\"url\":\"https://www.\",\"data\":{\"key\":\"\","
      + "\"message\":\"\",\"error\":\"\",\"code\":,\"total\":,\"price\":,\"count\":,"
      + "\"items\":[],\"true,\"false,\"null,\"value\":\"\",\"date\":\"\",\"time\":\"\","
      + "\"created\":\"\",\"updated\":\"\",\"timestamp\":\"2026-01-01T00:00:00.000Z\","
      + "\"email\":\"@example.com\",\"user\":\"\",\"customer\":\"\",\"order\":\"\","
      + "\"amount\":,\"currency\":\"EUR\",\"USD\",\"type\":\"\",\"status\":\"\","
      + "\"state\":\"\",{\"id\":\"\",\"name\":\"\",\"n\":").getBytes(StandardCharsets.UTF_8);

  /** Level 1: on contexts of 200 bytes it compresses within 10% of level 6, in less time. */
  private static final int LEVEL = Deflater.BEST_SPEED;

  /** The largest encoding a deflated value may claim: a context is at most a few MB. */
  private static final int MAX_LENGTH = 256 << 20;

  private static final ThreadLocal<Deflater> DEFLATERS =
      ThreadLocal.withInitial(() -> new Deflater(LEVEL, true));
  private static final ThreadLocal<Inflater> INFLATERS =
      ThreadLocal.withInitial(() -> new Inflater(true));

  private TaskValues() {}

  /** The index value of a task, kept under its id's key. */
  static byte[] encode(Task t) {
    byte[] plain = StoreEventCodec.encodeTask(new Task("", t.machine(), t.version(), t.state(),
        t.status(), t.context(), t.attempt(), t.errors(), t.created(), t.stateEntered(),
        t.lastAttempt(), t.due(), t.lease(), t.pausing()));
    Deflater deflater = DEFLATERS.get();
    deflater.reset();
    deflater.setDictionary(DICTIONARY);
    deflater.setInput(plain);
    deflater.finish();
    int header = 1 + varintLength(plain.length);
    // Only a value shorter than the plain one is kept, so the output never needs to be larger.
    byte[] out = new byte[plain.length];
    int at = header;
    while (!deflater.finished() && at < out.length) {
      at += deflater.deflate(out, at, out.length - at);
    }
    if (!deflater.finished() || at >= plain.length) {
      return plain;
    }
    out[0] = DEFLATED;
    int i = 1;
    int v = plain.length;
    for (; v >= 0x80; v >>>= 7) {
      out[i++] = (byte) (v | 0x80);
    }
    out[i] = (byte) v;
    return Arrays.copyOf(out, at);
  }

  /**
   * The task in an index value kept under the key {@link IndexKeys#id}{@code (id)}.
   *
   * @throws IllegalArgumentException when the bytes are not a whole value
   */
  static Task decode(byte[] key, byte[] value) {
    Task t = decode(value);
    if (!t.id().isEmpty()) {
      throw new IllegalArgumentException("task value holds an id, " + t.id());
    }
    return new Task(IndexKeys.idAt(key, 0), t.machine(), t.version(), t.state(), t.status(),
        t.context(), t.attempt(), t.errors(), t.created(), t.stateEntered(), t.lastAttempt(),
        t.due(), t.lease(), t.pausing());
  }

  private static Task decode(byte[] value) {
    if (value.length == 0 || value[0] != DEFLATED) {
      return StoreEventCodec.decodeTask(value);
    }
    int at = 1;
    long length = 0;
    for (int shift = 0; ; shift += 7) {
      if (at == value.length || shift > 28) {
        throw new IllegalArgumentException("deflated task value has no whole length");
      }
      int b = value[at++];
      length |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        break;
      }
    }
    if (length > MAX_LENGTH) {
      throw new IllegalArgumentException("deflated task value claims " + length + " bytes");
    }
    // One byte of room past the length claimed, so that a longer stream shows.
    byte[] plain = new byte[(int) length + 1];
    Inflater inflater = INFLATERS.get();
    inflater.reset();
    inflater.setDictionary(DICTIONARY);
    inflater.setInput(value, at, value.length - at);
    int filled = 0;
    try {
      while (!inflater.finished() && filled < plain.length) {
        int n = inflater.inflate(plain, filled, plain.length - filled);
        if (n == 0 && inflater.needsInput()) {
          break;
        }
        filled += n;
      }
    } catch (DataFormatException e) {
      throw new IllegalArgumentException("deflated task value is damaged: " + e.getMessage());
    }
    if (filled != length || !inflater.finished() || inflater.getRemaining() != 0) {
      throw new IllegalArgumentException("deflated task value does not inflate to its "
          + length + " bytes");
    }
    try {
      return StoreEventCodec.decodeTask(Arrays.copyOf(plain, filled));
    } catch (RuntimeException e) {
      // Raw deflate has no checksum: damaged bytes may inflate to a task record that is not one.
      throw new IllegalArgumentException("deflated task value inflates to a damaged task ("
          + e.getMessage() + ")");
    }
  }

  private static int varintLength(int v) {
    int n = 1;
    for (; v >= 0x80; v >>>= 7) {
      n++;
    }
    return n;
  }
}

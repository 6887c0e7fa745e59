package dev.fsm.store.embedded.event;

import dev.fsm.task.Task;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * A task packed as the index stores it and a snapshot copies it (issue 21: the context was three
 * quarters of the index): fsm's task encoding ({@link StoreEventCodec#encodeTask}) with an empty
 * id, since the index's key or the snapshot record holds the id, and its context deflated with a
 * preset dictionary of common JSON tokens when that is shorter. Then the value is a 0 byte (no
 * task encoding starts with one: it starts with its format, 1 or more), the context's length and
 * its deflated length as varints, the raw deflate stream, and the task's encoding with an empty
 * context. The same task always gives the same bytes, so two indexes compare entry by entry;
 * changing {@link #DICTIONARY} or the level changes those bytes, so the index's format goes with
 * them. Deflating costs 10-25 µs a context (java.util.zip clears 64 KiB of hash table per
 * stream); the index remembers the contexts it deflated last.
 */
public final class PackedTask {

  /**
   * Contexts shorter than this (in chars) are kept plain without trying: a short context gains a
   * few bytes at most, and the try costs a whole deflate (the runner bench's 10-char contexts
   * made every transition pay one).
   */
  public static final int MIN_DEFLATED = 64;

  /** The first byte of a value whose context is deflated. */
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

  /** The largest context a deflated value may claim: a context is at most a few MB. */
  private static final int MAX_LENGTH = 256 << 20;

  /** What a context that does not deflate shorter is remembered as. */
  private static final byte[] PLAIN = new byte[0];

  private static final ThreadLocal<Deflater> DEFLATERS =
      ThreadLocal.withInitial(() -> new Deflater(LEVEL, true));
  private static final ThreadLocal<Inflater> INFLATERS =
      ThreadLocal.withInitial(() -> new Inflater(true));

  private PackedTask() {}

  /** The packed task, its id left out. */
  public static byte[] encode(Task t) {
    return encode(t, contextPart(t.context()));
  }

  /**
   * The packed task with the context part given ({@link #contextPart} of its context), or the
   * task's encoding when the part is {@link #PLAIN}.
   */
  public static byte[] encode(Task t, byte[] contextPart) {
    boolean plain = contextPart == PLAIN;
    byte[] rest = StoreEventCodec.encodeTask(new Task("", t.machine(), t.version(), t.state(),
        t.status(), plain ? t.context() : "", t.attempt(), t.errors(), t.created(),
        t.stateEntered(), t.lastAttempt(), t.due(), t.lease(), t.pausing(), t.changed()));
    if (plain) {
      return rest;
    }
    byte[] out = Arrays.copyOf(contextPart, contextPart.length + rest.length);
    System.arraycopy(rest, 0, out, contextPart.length, rest.length);
    return out;
  }

  /**
   * The deflated context's part of a value: the 0 byte, both lengths and the stream; {@link
   * #PLAIN} when that is no shorter than the context as the task's encoding holds it.
   */
  public static byte[] contextPart(String context) {
    if (context.length() < MIN_DEFLATED) {
      return PLAIN;
    }
    byte[] plain = context.getBytes(StandardCharsets.UTF_8);
    int budget = varintLength(plain.length) + plain.length;
    Deflater deflater = DEFLATERS.get();
    deflater.reset();
    deflater.setDictionary(DICTIONARY);
    deflater.setInput(plain);
    deflater.finish();
    byte[] stream = new byte[budget];
    int n = 0;
    while (!deflater.finished() && n < stream.length) {
      n += deflater.deflate(stream, n, stream.length - n);
    }
    int size = 1 + varintLength(plain.length) + varintLength(n) + n;
    if (!deflater.finished() || size >= budget) {
      return PLAIN;
    }
    byte[] part = new byte[size];
    part[0] = DEFLATED;
    int at = putVarint(part, 1, plain.length);
    at = putVarint(part, at, n);
    System.arraycopy(stream, 0, part, at, n);
    return part;
  }

  /**
   * The task {@code id} packed in {@code value}.
   *
   * @throws IllegalArgumentException when the bytes are not a whole packed task
   */
  public static Task decode(String id, byte[] value) {
    Deflated d = Deflated.in(value);
    String context = d == null ? null : inflate(value, d.from(), d.size(), d.length());
    byte[] rest = d == null ? value : Arrays.copyOfRange(value, d.end(), value.length);
    Task t;
    try {
      t = StoreEventCodec.decodeTask(rest);
    } catch (IllegalArgumentException e) {
      throw e;
    } catch (RuntimeException e) {
      // Times out of range and the like: the record is no task.
      throw new IllegalArgumentException("task value is damaged (" + e + ")");
    }
    if (!t.id().isEmpty()) {
      throw new IllegalArgumentException("task value holds an id, " + t.id());
    }
    if (context != null && !t.context().isEmpty()) {
      throw new IllegalArgumentException("task value holds a context beside its deflated one");
    }
    return new Task(id, t.machine(), t.version(), t.state(), t.status(),
        context == null ? t.context() : context, t.attempt(), t.errors(), t.created(),
        t.stateEntered(), t.lastAttempt(), t.due(), t.lease(), t.pausing(), t.changed());
  }

  /**
   * The task {@code id} packed in {@code value} with an empty context, its deflated context
   * skipped unread: all a rebuild needs to place a task, without the inflating.
   *
   * @throws IllegalArgumentException when the bytes are not a whole value
   */
  public static Task decodeWithoutContext(String id, byte[] value) {
    Deflated d = Deflated.in(value);
    byte[] rest = d == null ? value : Arrays.copyOfRange(value, d.end(), value.length);
    Task t = StoreEventCodec.decodeTask(rest);
    return new Task(id, t.machine(), t.version(), t.state(), t.status(), "", t.attempt(),
        t.errors(), t.created(), t.stateEntered(), t.lastAttempt(), t.due(), t.lease(),
        t.pausing(), t.changed());
  }

  /** Where a value's deflated context lies: its length, and its stream's offset and size. */
  private record Deflated(int length, int from, int size) {

    /** The deflated context of {@code value}; null when its context is kept plain. */
    static Deflated in(byte[] value) {
      if (value.length == 0 || value[0] != DEFLATED) {
        return null;
      }
      int[] at = {1};
      int length = varint(value, at);
      int size = varint(value, at);
      if (length > MAX_LENGTH || size > value.length - at[0]) {
        throw new IllegalArgumentException("deflated context claims " + length + " bytes in "
            + size + " of a " + value.length + "-byte value");
      }
      return new Deflated(length, at[0], size);
    }

    int end() {
      return from + size;
    }
  }

  private static String inflate(byte[] value, int from, int deflated, int length) {
    // One byte of room past the length claimed, so that a longer stream shows.
    byte[] plain = new byte[length + 1];
    Inflater inflater = INFLATERS.get();
    inflater.reset();
    inflater.setDictionary(DICTIONARY);
    inflater.setInput(value, from, deflated);
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
      throw new IllegalArgumentException("deflated context is damaged: " + e.getMessage());
    }
    if (filled != length || !inflater.finished() || inflater.getRemaining() != 0) {
      throw new IllegalArgumentException("deflated context does not inflate to its " + length
          + " bytes");
    }
    return new String(plain, 0, length, StandardCharsets.UTF_8);
  }

  private static int varint(byte[] bytes, int[] at) {
    long v = 0;
    for (int shift = 0; ; shift += 7) {
      if (at[0] == bytes.length || shift > 28) {
        throw new IllegalArgumentException("task value has no whole length at byte " + at[0]);
      }
      int b = bytes[at[0]++];
      v |= (long) (b & 0x7f) << shift;
      if (b >= 0) {
        break;
      }
    }
    if (v > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("task value claims a length of " + v);
    }
    return (int) v;
  }

  private static int putVarint(byte[] out, int at, int v) {
    int i = at;
    for (; v >= 0x80; v >>>= 7) {
      out[i++] = (byte) (v | 0x80);
    }
    out[i++] = (byte) v;
    return i;
  }

  private static int varintLength(int v) {
    int n = 1;
    for (; v >= 0x80; v >>>= 7) {
      n++;
    }
    return n;
  }
}

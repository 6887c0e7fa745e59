package dev.fsm.store.embedded.index;

import dev.fsm.store.embedded.event.StoreEventCodec;
import dev.fsm.task.TaskStatus;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;

/**
 * The index's keys as bytes that sort, compared unsigned as MapDB's byte-array serializers do, in
 * the order the index needs. Byte keys rather than strings or tuples because MapDB decodes a whole
 * B-tree node on every visit, and decoding 32 strings per node was most of the store's CPU.
 *
 * <p>A name inside a key (machine, state, or an id followed by more) is its UTF-8 bytes with NUL
 * written as 00 FF and a 00 terminator, so a name sorts before any longer name it begins. An id
 * at the end of a key is its plain UTF-8 bytes. UTF-8 byte order is Unicode code point order.
 */
public final class IndexKeys {

  /** Bytes of a time slot's instant: epoch second (sign flipped, so negatives sort first), nano. */
  private static final int INSTANT_BYTES = 12;

  private IndexKeys() {}

  /** A task's key in the task map, and its id within longer keys. */
  public static byte[] id(String id) {
    return id.getBytes(StandardCharsets.UTF_8);
  }

  /** The id at the end of a key, from {@code from}. */
  static String idAt(byte[] key, int from) {
    return new String(key, from, key.length - from, StandardCharsets.UTF_8);
  }

  /** A due-queue or lease-queue slot: the instant, then the id. */
  static byte[] slot(Instant at, String id) {
    byte[] idBytes = id(id);
    byte[] key = Arrays.copyOf(instant(at), INSTANT_BYTES + idBytes.length);
    System.arraycopy(idBytes, 0, key, INSTANT_BYTES, idBytes.length);
    return key;
  }

  /** The first slot after every slot at {@code at}: queue heads up to {@code at} lie before it. */
  static byte[] slotsAfter(Instant at) {
    return instant(at.plusNanos(1));
  }

  /** The instant in a slot. */
  static Instant slotTime(byte[] slot) {
    long second = 0;
    for (int i = 0; i < 8; i++) {
      second = (second << 8) | (slot[i] & 0xff);
    }
    int nano = 0;
    for (int i = 0; i < 4; i++) {
      nano = (nano << 8) | (slot[8 + i] & 0xff);
    }
    return Instant.ofEpochSecond(second ^ Long.MIN_VALUE, nano);
  }

  /** The id in a slot. */
  static String slotId(byte[] slot) {
    return idAt(slot, INSTANT_BYTES);
  }

  /** A group (machine, state, status): a prefix of its members' keys, and a count's key. */
  static byte[] group(String machine, String state, TaskStatus status) {
    byte[] m = name(machine);
    byte[] s = name(state);
    byte[] key = Arrays.copyOf(m, m.length + s.length + 1);
    System.arraycopy(s, 0, key, m.length, s.length);
    key[key.length - 1] = (byte) StoreEventCodec.statusCode(status);
    return key;
  }

  /** A member of a group: the group, then the task's id. */
  static byte[] member(String machine, String state, TaskStatus status, String id) {
    return concat(group(machine, state, status), id(id));
  }

  /** The parts of a group key, or of the group at the start of a member key. */
  record Group(String machine, String state, TaskStatus status, int end) {}

  static Group groupOf(byte[] key) {
    int[] at = {0};
    String machine = nameAt(key, at);
    String state = nameAt(key, at);
    TaskStatus status = StoreEventCodec.status(key[at[0]] & 0xff);
    return new Group(machine, state, status, at[0] + 1);
  }

  /** A history chunk's key: the task's id as a name, then the chunk's number. */
  static byte[] history(String id, int chunk) {
    byte[] prefix = historyOf(id);
    byte[] key = Arrays.copyOf(prefix, prefix.length + 4);
    for (int i = 0; i < 4; i++) {
      key[prefix.length + i] = (byte) (chunk >>> (24 - 8 * i));
    }
    return key;
  }

  /** The prefix of every history key of a task. */
  static byte[] historyOf(String id) {
    return name(id);
  }

  /**
   * The first key after every history key of a task: chunk numbers start with a byte below 80,
   * while the key of another task whose id begins with this one and a NUL continues with FF.
   */
  static byte[] historyEnd(String id) {
    byte[] prefix = historyOf(id);
    byte[] end = Arrays.copyOf(prefix, prefix.length + 1);
    end[prefix.length] = (byte) 0x80;
    return end;
  }

  /** The chunk number in a history key. */
  static int historyChunk(byte[] key) {
    int n = key.length;
    return (key[n - 4] & 0xff) << 24 | (key[n - 3] & 0xff) << 16 | (key[n - 2] & 0xff) << 8
        | (key[n - 1] & 0xff);
  }

  /** The first key after every key that starts with {@code prefix}. */
  static byte[] after(byte[] prefix) {
    byte[] end = prefix.clone();
    for (int i = end.length - 1; i >= 0; i--) {
      if (end[i] != (byte) 0xff) {
        end[i]++;
        return Arrays.copyOf(end, i + 1);
      }
    }
    throw new IllegalArgumentException("no key follows an all-FF prefix");
  }

  /** True when {@code key} starts with {@code prefix}. */
  static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length
        && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] key = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, key, a.length, b.length);
    return key;
  }

  private static byte[] instant(Instant at) {
    byte[] key = new byte[INSTANT_BYTES];
    long second = at.getEpochSecond() ^ Long.MIN_VALUE;
    for (int i = 0; i < 8; i++) {
      key[i] = (byte) (second >>> (56 - 8 * i));
    }
    int nano = at.getNano();
    for (int i = 0; i < 4; i++) {
      key[8 + i] = (byte) (nano >>> (24 - 8 * i));
    }
    return key;
  }

  /** A name's UTF-8 bytes with each NUL followed by FF, then a NUL to end it. */
  static byte[] name(String name) {
    byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
    int nuls = 0;
    for (byte b : utf8) {
      if (b == 0) {
        nuls++;
      }
    }
    byte[] key = new byte[utf8.length + nuls + 1];
    if (nuls == 0) {
      System.arraycopy(utf8, 0, key, 0, utf8.length);
      return key;
    }
    int o = 0;
    for (byte b : utf8) {
      key[o++] = b;
      if (b == 0) {
        key[o++] = (byte) 0xff;
      }
    }
    return key;
  }

  /** The name that starts at {@code at[0]} in a key; {@code at[0]} moves past its end. */
  static String nameAt(byte[] key, int[] at) {
    byte[] out = new byte[key.length - at[0]];
    int n = 0;
    int i = at[0];
    while (true) {
      if (i >= key.length) {
        throw new IllegalArgumentException("a name in an index key has no end");
      }
      byte b = key[i++];
      if (b != 0) {
        out[n++] = b;
      } else if (i < key.length && key[i] == (byte) 0xff) {
        out[n++] = 0;
        i++;
      } else {
        break;
      }
    }
    at[0] = i;
    return new String(out, 0, n, StandardCharsets.UTF_8);
  }
}

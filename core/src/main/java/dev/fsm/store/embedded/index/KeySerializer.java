package dev.fsm.store.embedded.index;

import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import org.mapdb.DBException;
import org.mapdb.DataInput2;
import org.mapdb.DataOutput2;
import org.mapdb.Serializer;
import org.mapdb.serializer.GroupSerializer;

/**
 * MapDB's byte-array key serializer, with a B-tree node's keys held as one run of bytes and
 * their offsets rather than an array per key. MapDB decodes a whole node on every visit; with
 * its own layout that meant an allocation and a buffer duplicate per key, the index's largest
 * cost. Here a node decodes with one bulk read, and searches compare in place; only a key asked
 * for is copied out. Keys compare as unsigned bytes, as MapDB's own byte-array serializer does.
 * Public so that tests outside this package can open an index's maps.
 */
public final class KeySerializer implements GroupSerializer<byte[]> {

  /** The one instance. */
  public static final KeySerializer INSTANCE = new KeySerializer();

  /** A node's keys: key {@code i} is {@code run[starts[i] .. starts[i + 1])}. */
  static final class Keys {
    final byte[] run;
    final int[] starts;

    Keys(byte[] run, int[] starts) {
      this.run = run;
      this.starts = starts;
    }

    int size() {
      return starts.length - 1;
    }

    int length(int i) {
      return starts[i + 1] - starts[i];
    }
  }

  /** No key is longer than a node record can be (MapDB's largest record is 64 KiB). */
  private static final int MAX_KEY = 0xFFFF;

  private static final Keys EMPTY = new Keys(new byte[0], new int[] {0});

  private KeySerializer() {}

  @Override
  public void serialize(DataOutput2 out, byte[] key) throws IOException {
    Serializer.BYTE_ARRAY.serialize(out, key);
  }

  @Override
  public byte[] deserialize(DataInput2 in, int available) throws IOException {
    return Serializer.BYTE_ARRAY.deserialize(in, available);
  }

  @Override
  public boolean isTrusted() {
    return true;
  }

  @Override
  public boolean equals(byte[] a, byte[] b) {
    return Arrays.equals(a, b);
  }

  @Override
  public int hashCode(byte[] key, int seed) {
    return Serializer.BYTE_ARRAY.hashCode(key, seed);
  }

  /** Unsigned, shorter first on a common prefix: the order {@link IndexKeys} relies on. */
  @Override
  public int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  @Override
  public byte[] nextValue(byte[] key) {
    return Serializer.BYTE_ARRAY.nextValue(key);
  }

  /**
   * A node's keys on disk, each as the length of the prefix it shares with the key before it and
   * the rest: the lengths of every key first, then the rest of each. Neighbouring keys share most
   * of their bytes (ids are time-ordered; a queue's slots share their instant), so this stores
   * about a fifth of what whole keys took (issue 21). Decoded, a node is whole keys again.
   */
  @Override
  public void valueArraySerialize(DataOutput2 out, Object keys) throws IOException {
    Keys k = (Keys) keys;
    int n = k.size();
    int[] shared = new int[n];
    for (int i = 0; i < n; i++) {
      shared[i] = i == 0 ? 0 : shared(k, i);
      out.packInt(shared[i]);
      out.packInt(k.length(i) - shared[i]);
    }
    for (int i = 0; i < n; i++) {
      out.write(k.run, k.starts[i] + shared[i], k.length(i) - shared[i]);
    }
  }

  /** How many leading bytes key {@code i} shares with key {@code i - 1}. */
  private static int shared(Keys k, int i) {
    int mismatch = Arrays.mismatch(k.run, k.starts[i - 1], k.starts[i], k.run, k.starts[i],
        k.starts[i + 1]);
    return mismatch < 0 ? k.length(i) : mismatch;
  }

  /**
   * Reads what {@link #valueArraySerialize} wrote.
   *
   * @throws DBException.DataCorruption when a length cannot be right (a damaged node, or one
   *     written in another format), before anything is allocated by it
   */
  @Override
  public Object valueArrayDeserialize(DataInput2 in, int size) throws IOException {
    int[] starts = new int[size + 1];
    int[] shared = new int[size];
    for (int i = 0; i < size; i++) {
      shared[i] = in.unpackInt();
      int rest = in.unpackInt();
      int previous = i == 0 ? 0 : starts[i] - starts[i - 1];
      if (shared[i] < 0 || shared[i] > previous || rest < 0 || rest > MAX_KEY) {
        throw new DBException.DataCorruption("an index node's key " + i + " of " + size
            + " has impossible lengths (" + shared[i] + " shared, " + rest + " more)");
      }
      starts[i + 1] = starts[i] + shared[i] + rest;
    }
    byte[] run = new byte[starts[size]];
    for (int i = 0; i < size; i++) {
      if (shared[i] > 0) {
        System.arraycopy(run, starts[i - 1], run, starts[i], shared[i]);
      }
      in.readFully(run, starts[i] + shared[i], starts[i + 1] - starts[i] - shared[i]);
    }
    return new Keys(run, starts);
  }

  @Override
  public byte[] valueArrayGet(Object keys, int i) {
    Keys k = (Keys) keys;
    return Arrays.copyOfRange(k.run, k.starts[i], k.starts[i + 1]);
  }

  @Override
  public int valueArraySize(Object keys) {
    return ((Keys) keys).size();
  }

  @Override
  public Object valueArrayEmpty() {
    return EMPTY;
  }

  @Override
  public int valueArraySearch(Object keys, byte[] key) {
    return valueArraySearch(keys, key, this);
  }

  /** A binary search as {@code Arrays.binarySearch}; in place when the order is this one's. */
  @Override
  @SuppressWarnings({"rawtypes", "unchecked"})
  public int valueArraySearch(Object keys, byte[] key, Comparator comparator) {
    Keys k = (Keys) keys;
    int low = 0;
    int high = k.size() - 1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      int c = comparator == this
          ? Arrays.compareUnsigned(k.run, k.starts[mid], k.starts[mid + 1], key, 0, key.length)
          : comparator.compare(valueArrayGet(k, mid), key);
      if (c < 0) {
        low = mid + 1;
      } else if (c > 0) {
        high = mid - 1;
      } else {
        return mid;
      }
    }
    return -(low + 1);
  }

  @Override
  public Object valueArrayPut(Object keys, int pos, byte[] key) {
    Keys k = (Keys) keys;
    int n = k.size();
    int at = k.starts[pos];
    byte[] run = new byte[k.run.length + key.length];
    System.arraycopy(k.run, 0, run, 0, at);
    System.arraycopy(key, 0, run, at, key.length);
    System.arraycopy(k.run, at, run, at + key.length, k.starts[n] - at);
    int[] starts = new int[n + 2];
    System.arraycopy(k.starts, 0, starts, 0, pos + 1);
    for (int i = pos; i <= n; i++) {
      starts[i + 1] = k.starts[i] + key.length;
    }
    return new Keys(run, starts);
  }

  @Override
  public Object valueArrayUpdateVal(Object keys, int pos, byte[] key) {
    return valueArrayPut(deleteAt((Keys) keys, pos), pos, key);
  }

  @Override
  public Object valueArrayFromArray(Object[] keys) {
    int[] starts = new int[keys.length + 1];
    for (int i = 0; i < keys.length; i++) {
      starts[i + 1] = starts[i] + ((byte[]) keys[i]).length;
    }
    byte[] run = new byte[starts[keys.length]];
    for (int i = 0; i < keys.length; i++) {
      byte[] key = (byte[]) keys[i];
      System.arraycopy(key, 0, run, starts[i], key.length);
    }
    return new Keys(run, starts);
  }

  @Override
  public Object valueArrayCopyOfRange(Object keys, int from, int to) {
    Keys k = (Keys) keys;
    int[] starts = new int[to - from + 1];
    for (int i = from; i <= to; i++) {
      starts[i - from] = k.starts[i] - k.starts[from];
    }
    return new Keys(Arrays.copyOfRange(k.run, k.starts[from], k.starts[to]), starts);
  }

  /** MapDB counts this position from 1, as its own byte-array serializer does. */
  @Override
  public Object valueArrayDeleteValue(Object keys, int pos) {
    return deleteAt((Keys) keys, pos - 1);
  }

  private static Keys deleteAt(Keys k, int i) {
    int n = k.size();
    int len = k.length(i);
    byte[] run = new byte[k.run.length - len];
    System.arraycopy(k.run, 0, run, 0, k.starts[i]);
    System.arraycopy(k.run, k.starts[i + 1], run, k.starts[i], k.starts[n] - k.starts[i + 1]);
    int[] starts = new int[n];
    System.arraycopy(k.starts, 0, starts, 0, i + 1);
    for (int j = i + 1; j < n; j++) {
      starts[j] = k.starts[j + 1] - len;
    }
    return new Keys(run, starts);
  }
}

package dev.fsm.store.embedded.index;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The heap side of a {@link BufferedKeySet}: the keys added lately, each until {@code window}
 * adds came after its latest add, then written to the MapDB set behind it. Kept sorted (a
 * {@code TreeMap}) for a set read in order at every claim, or hashed and sorted when a read needs
 * them, for a set read in order only now and then: under 64 writers a {@code TreeMap} of group
 * members cost more than the B-tree it spared (pointer chasing, where a B-tree leaf is one
 * array). A key is on one side only.
 */
final class HeapKeys {

  static final Comparator<byte[]> ASCENDING = Arrays::compareUnsigned;

  /**
   * One add of a key to the heap, removed once the key is: a key removed and added again is a
   * new add, so the window counts from its latest add, not its first.
   */
  private static final class Added {
    final byte[] key;
    boolean removed;

    Added(byte[] key) {
      this.key = key;
    }
  }

  /** A key hashed, for a set whose heap side is unordered. */
  private static final class Key {
    final byte[] bytes;
    final int hash;

    Key(byte[] bytes) {
      this.bytes = bytes;
      this.hash = Arrays.hashCode(bytes);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.hash == hash && Arrays.equals(k.bytes, bytes);
    }

    @Override
    public int hashCode() {
      return hash;
    }
  }

  private final NavigableSet<byte[]> stored;
  private final TreeMap<byte[], Added> sorted;
  private final HashMap<Key, Added> hashed;
  /**
   * The hashed keys sorted, made by the first read that needs them and then kept up by replaying
   * {@link #since}, the changes after it, at the next such read; null when none is kept.
   */
  private TreeSet<byte[]> sortedCopy;
  /** Keys added (true) and removed (false) on the heap since {@link #sortedCopy} was last read. */
  private final ArrayList<Change> since = new ArrayList<>();

  /** One change to the hashed keys, to replay on the sorted copy. */
  private record Change(byte[] key, boolean added) {}
  /** The adds in order, each taken off when {@code window} more came after it. */
  private final ArrayDeque<Added> added = new ArrayDeque<>();
  private final int window;

  HeapKeys(NavigableSet<byte[]> stored, int window, boolean ordered) {
    this.stored = stored;
    this.window = window;
    this.sorted = ordered ? new TreeMap<>(ASCENDING) : null;
    this.hashed = ordered ? null : new HashMap<>();
  }

  private Added putIfAbsent(byte[] key, Added add) {
    if (sorted != null) {
      return sorted.putIfAbsent(key, add);
    }
    Added before = hashed.putIfAbsent(new Key(key), add);
    if (before == null) {
      changed(key, true);
    }
    return before;
  }

  /**
   * Notes a change for the sorted copy, if one is kept. Past as many changes as keys, rebuilding
   * it at the next read costs less than replaying them, and holds less: it is dropped.
   */
  private void changed(byte[] key, boolean isAdded) {
    if (sortedCopy == null) {
      return;
    }
    if (since.size() >= Math.max(1024, hashed.size())) {
      sortedCopy = null;
      since.clear();
      return;
    }
    since.add(new Change(key, isAdded));
  }

  private Added take(Object key) {
    if (sorted != null) {
      return sorted.remove(key);
    }
    if (!(key instanceof byte[] bytes)) {
      return null;
    }
    Added removed = hashed.remove(new Key(bytes));
    if (removed != null) {
      changed(bytes, false);
    }
    return removed;
  }

  /** Whether the heap holds the key (MapDB is not asked). */
  boolean contains(Object key) {
    return sorted != null ? sorted.containsKey(key)
        : key instanceof byte[] bytes && hashed.containsKey(new Key(bytes));
  }

  /** Keys on the heap. */
  int size() {
    return sorted != null ? sorted.size() : hashed.size();
  }

  /**
   * The heap's keys, sorted: a live view when kept sorted, else the sorted copy, brought up to
   * date here (a page of `fsm ls --state` or `fsm errors` reads one range of it per group).
   */
  NavigableSet<byte[]> keys() {
    if (sorted != null) {
      return sorted.navigableKeySet();
    }
    if (sortedCopy == null) {
      TreeSet<byte[]> copy = new TreeSet<>(ASCENDING);
      for (Key k : hashed.keySet()) {
        copy.add(k.bytes);
      }
      sortedCopy = copy;
    } else {
      for (Change c : since) {
        if (c.added()) {
          sortedCopy.add(c.key());
        } else {
          sortedCopy.remove(c.key());
        }
      }
    }
    since.clear();
    return sortedCopy;
  }

  private void clear() {
    if (sorted != null) {
      sorted.clear();
    } else {
      hashed.clear();
      sortedCopy = null;
      since.clear();
    }
    added.clear();
  }

  /**
   * Adds a key held on neither side to the heap, and writes to MapDB the keys whose latest add
   * now has {@code window} adds after it; false when either side held it.
   */
  boolean add(byte[] key) {
    Added add = new Added(key);
    if (putIfAbsent(key, add) != null) {
      return false;
    }
    if (stored.contains(key)) {
      take(key);
      return false;
    }
    added.addLast(add);
    while (added.size() > window) {
      Added oldest = added.pollFirst();
      if (!oldest.removed) {
        take(oldest.key);
        stored.add(oldest.key);
      }
    }
    return true;
  }

  /** Removes a key from whichever side holds it; false when neither did. */
  boolean remove(Object key) {
    Added add = take(key);
    if (add != null) {
      add.removed = true;
      return true;
    }
    return stored.remove(key);
  }

  /** Writes every key on the heap to MapDB, in order, and empties the heap. */
  void flush() {
    for (byte[] key : keys()) {
      stored.add(key);
    }
    clear();
  }
}
